// Gemini generateContent (POST /v1beta/models/{model}:generateContent) as the simulator serves it.
#include <cmath>

#include "sim/dialect.h"
#include "sim/file_parts.h"
#include "sim/gemini/gemini_thinking.h"
#include "sim/model_checks.h"
#include "sim/schema_check.h"
#include "sim/thinking.h"
#include "sim/wire_util.h"

namespace structure::sim {
namespace {

constexpr std::string_view kPrefix = "/v1beta/models/";
constexpr std::string_view kSuffix = ":generateContent";

const char* StatusName(int status) {
  switch (status) {
    case 400:
      return "INVALID_ARGUMENT";
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "PERMISSION_DENIED";
    case 404:
      return "NOT_FOUND";
    case 429:
      return "RESOURCE_EXHAUSTED";
    case 499:
      return "CANCELLED";
    case 503:
      return "UNAVAILABLE";
    case 504:
      return "DEADLINE_EXCEEDED";
    default:
      return status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
  }
}

bool Known(std::string_view key, std::initializer_list<std::string_view> names) {
  for (auto n : names) {
    if (n == key) return true;
  }
  return false;
}

// The proto-backed API rejects unknown fields; snake_case spellings are accepted too.
Status CheckFields(const Json& obj, std::string_view where,
                   std::initializer_list<std::string_view> names) {
  for (const auto& [key, value] : obj.as_object()) {
    if (!Known(key, names)) {
      return InvalidArgument("Invalid JSON payload received. Unknown name \"" + key + "\"" +
                             (where.empty() ? "" : " at '" + std::string(where) + "'") +
                             ": Cannot find field.");
    }
  }
  return Status::Ok();
}

std::string PartsText(const Json& content) {
  const Json* parts = content.find("parts");
  return parts ? ContentText(*parts) : "";
}

// A part's data is a oneof (text, inlineData, functionCall, ...); an empty text is the proto
// default, so the API sees no data at all.
bool HasData(const Json& part) {
  if (!part.is_object()) return false;
  for (const auto& [key, value] : part.as_object()) {
    if (key == "thought" || key == "thoughtSignature" || key == "thought_signature" ||
        key == "partMetadata" || key == "videoMetadata") {
      continue;
    }
    if (key == "text" && value.is_string() && value.as_string().empty()) continue;
    return true;
  }
  return false;
}

Status ParseContents(const Json& body, ChatRequest& out) {
  const Json* sys = body.find("systemInstruction");
  if (!sys) sys = body.find("system_instruction");
  if (sys && sys->is_object()) out.messages.push_back({"system", PartsText(*sys)});
  const Json* contents = body.find("contents");
  if (!contents || !contents->is_array() || contents->size() == 0) {
    return InvalidArgument("* GenerateContentRequest.contents: contents is not specified\n");
  }
  size_t i = 0;
  for (const auto& c : contents->as_array()) {
    const Json* role = c.find("role");
    std::string r = role && role->is_string() ? role->as_string() : "user";
    if (r != "user" && r != "model" && r != "function") {
      return InvalidArgument("Please use a valid role: user, model.");
    }
    const Json* parts = c.find("parts");
    if (!parts || !parts->is_array() || parts->size() == 0) {
      return InvalidArgument("* GenerateContentRequest.contents[" + std::to_string(i) +
                             "].parts: contents.parts must not be empty.\n");
    }
    size_t j = 0;
    for (const auto& part : parts->as_array()) {
      if (!HasData(part)) {
        return InvalidArgument("* GenerateContentRequest.contents[" + std::to_string(i) +
                               "].parts[" + std::to_string(j) +
                               "].data: required oneof field 'data' must have one initialized "
                               "field\n");
      }
      auto file = FilePartText(
          part, "contents[" + std::to_string(i) + "].parts[" + std::to_string(j) + "]");
      if (!file.ok()) return file.status();
      ++j;
    }
    ++i;
    out.messages.push_back({r == "model" ? "assistant" : (r == "function" ? "tool" : "user"),
                            PartsText(c), false, TextPartCount(*parts)});
  }
  return Status::Ok();
}

Status ParseGenerationConfig(const Json& body, ChatRequest& out) {
  const Json* gc = body.find("generationConfig");
  if (!gc) gc = body.find("generation_config");
  if (!gc || !gc->is_object()) return Status::Ok();
  STRUCTURE_RETURN_IF_ERROR(CheckFields(*gc, "generation_config",
                                        {"stopSequences",
                                         "responseMimeType",
                                         "responseSchema",
                                         "responseJsonSchema",
                                         "_responseJsonSchema",
                                         "candidateCount",
                                         "maxOutputTokens",
                                         "temperature",
                                         "topP",
                                         "topK",
                                         "seed",
                                         "presencePenalty",
                                         "frequencyPenalty",
                                         "responseLogprobs",
                                         "logprobs",
                                         "thinkingConfig",
                                         "responseModalities",
                                         "mediaResolution",
                                         "propertyOrdering",
                                         "stop_sequences",
                                         "response_mime_type",
                                         "response_schema",
                                         "response_json_schema",
                                         "candidate_count",
                                         "max_output_tokens",
                                         "top_p",
                                         "top_k",
                                         "thinking_config"}));
  auto get = [&](const char* camel, const char* snake) {
    const Json* v = gc->find(camel);
    return v ? v : gc->find(snake);
  };
  if (const Json* max = get("maxOutputTokens", "max_output_tokens"); max && max->is_integral()) {
    out.max_tokens = max->as_int();
  }
  out.rejected = CheckGeminiParameters(*gc, out.model);
  if (!out.rejected) STRUCTURE_RETURN_IF_ERROR(ParseGeminiThinking(*gc, out));
  const Json* mime = get("responseMimeType", "response_mime_type");
  std::string mime_type = mime && mime->is_string() ? mime->as_string() : "text/plain";
  const Json* legacy = get("responseSchema", "response_schema");
  const Json* json_schema = get("responseJsonSchema", "response_json_schema");
  if (!json_schema) json_schema = gc->find("_responseJsonSchema");
  if (legacy && json_schema) {
    return InvalidArgument("responseSchema and responseJsonSchema cannot both be set.");
  }
  const Json* schema = legacy ? legacy : json_schema;
  if (schema && mime_type != "application/json" && mime_type != "text/x.enum") {
    return InvalidArgument(
        "* GenerateContentRequest.generation_config.response_mime_type: "
        "response_schema is only supported with response_mime_type: "
        "application/json or text/x.enum.\n");
  }
  if (mime_type == "application/json") out.mode = OutputMode::kJsonObject;
  if (schema) {
    out.mode = OutputMode::kJsonSchema;
    out.schema = legacy ? LowerCaseTypes(*schema) : *schema;
    if (legacy) {
      out.checks.push_back({"gemini-legacy", "generation_config.response_schema", *schema});
    } else {
      out.checks.push_back({"gemini", "generation_config.response_json_schema", *schema});
    }
  }
  return Status::Ok();
}

Status ParseTools(const Json& body, ChatRequest& out) {
  const Json* tools = body.find("tools");
  if (!tools || !tools->is_array()) return Status::Ok();
  for (const auto& tool : tools->as_array()) {
    const Json* decls = tool.find("functionDeclarations");
    if (!decls) decls = tool.find("function_declarations");
    if (!decls || !decls->is_array()) continue;
    for (const auto& d : decls->as_array()) {
      const Json* name = d.find("name");
      if (!name || !name->is_string()) {
        return InvalidArgument(
            "* GenerateContentRequest.tools[0].function_declarations[0].name: "
            "Name cannot be empty.\n");
      }
      const Json* json_schema = d.find("parametersJsonSchema");
      const Json* legacy = d.find("parameters");
      if (json_schema && legacy) {
        return InvalidArgument(
            "* GenerateContentRequest.tools[0].function_declarations[0]: parameters and "
            "parameters_json_schema cannot both be set.\n");
      }
      if (legacy) {
        // The OpenAPI dialect: checked like responseSchema, read with lower-case types.
        out.checks.push_back(
            {"gemini-legacy", "tools[0].function_declarations[0].parameters", *legacy});
        out.tools.push_back({name->as_string(), LowerCaseTypes(*legacy)});
      } else {
        out.tools.push_back({name->as_string(), json_schema ? *json_schema : Json::MakeObject()});
      }
    }
  }
  std::string mode = "AUTO";
  const Json* tc = body.find("toolConfig");
  if (!tc) tc = body.find("tool_config");
  const Json* fcc = tc ? tc->find("functionCallingConfig") : nullptr;
  if (fcc) {
    if (const Json* m = fcc->find("mode"); m && m->is_string()) mode = m->as_string();
    const Json* allowed = fcc->find("allowedFunctionNames");
    if (allowed && allowed->is_array() && allowed->size() == 1 &&
        allowed->as_array()[0].is_string()) {
      out.forced_tool = allowed->as_array()[0].as_string();
    }
  }
  if (!out.tools.empty() && mode != "NONE" && out.mode != OutputMode::kJsonSchema) {
    out.mode = OutputMode::kTool;
  }
  return Status::Ok();
}

class GeminiDialect final : public Dialect {
 public:
  Provider provider() const override { return Provider::kGemini; }

  // The path of the kind table (providers/kinds.h).
  bool Serves(const http::HttpRequest& r) const override {
    return OnPathOf(r.path, providers::ProviderKind::kGemini);
  }

  std::optional<http::HttpResponse> CheckAuth(const http::HttpRequest& r,
                                              const KeyPolicy& keys) const override {
    const std::string* header = r.FindHeader("x-goog-api-key");
    std::string key = header ? *header : r.QueryParam("key").value_or("");
    if (key.empty()) {
      return Error(403,
                   "Method doesn't allow unregistered callers (callers without established "
                   "identity). Please use API Key or other form of API consumer identity "
                   "to call this API.");
    }
    if (keys.invalid_keys.count(key)) {
      return Error(400, "API key not valid. Please pass a valid API key.");
    }
    return std::nullopt;
  }

  Result<ChatRequest> Parse(const http::HttpRequest& r) const override {
    std::string_view rest = std::string_view(r.path).substr(kPrefix.size());
    size_t colon = rest.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || rest.substr(colon) != kSuffix) {
      return Status(Code::kNotFound, "Requested entity was not found.");
    }
    if (r.method != "POST") return Status(Code::kNotFound, "Requested entity was not found.");
    auto body = ParseBodyObject(r.body);
    if (!body.ok()) {
      return InvalidArgument("Invalid JSON payload received. " + body.status().message());
    }
    STRUCTURE_RETURN_IF_ERROR(
        CheckFields(*body, "",
                    {"contents", "systemInstruction", "system_instruction", "generationConfig",
                     "generation_config", "tools", "toolConfig", "tool_config", "safetySettings",
                     "safety_settings", "cachedContent", "cached_content", "labels"}));
    ChatRequest out;
    out.provider = Provider::kGemini;
    out.model = std::string(rest.substr(0, colon));
    STRUCTURE_RETURN_IF_ERROR(ParseContents(*body, out));
    if (GeminiThinksByDefault(out.model)) out.thinking_tokens = BudgetTokens(-1);
    STRUCTURE_RETURN_IF_ERROR(ParseGenerationConfig(*body, out));
    STRUCTURE_RETURN_IF_ERROR(ParseTools(*body, out));
    out.signatures = out.thinking_tokens > 0;
    if (GeminiChecksSignatures(out.model) && !out.rejected) {
      STRUCTURE_RETURN_IF_ERROR(CheckGeminiSignatures(*body->find("contents")));
    }
    return out;
  }

  http::HttpResponse Render(const ChatRequest& req, const Answer& a, const Usage& usage,
                            uint64_t id_seed) const override {
    Json candidate = Json::MakeObject();
    std::string finish = a.truncated ? "MAX_TOKENS" : "STOP";
    if (a.kind == Answer::Kind::kRefusal || a.kind == Answer::Kind::kSafety) {
      // Gemini has no refusal field: a declined answer is a candidate blocked for SAFETY.
      finish = "SAFETY";
      Json rating = Json::MakeObject();
      rating.set("category", "HARM_CATEGORY_DANGEROUS_CONTENT");
      rating.set("probability", "HIGH");
      rating.set("blocked", true);
      candidate.set("finishReason", finish);
      candidate.set("index", 0);
      candidate.set("safetyRatings", ArrayOf(std::move(rating)));
    } else {
      Json part = Json::MakeObject();
      auto args =
          a.kind == Answer::Kind::kToolCall ? ParseJson(a.tool_arguments) : Result<Json>(Json());
      if (a.kind == Answer::Kind::kToolCall && args.ok() && args->is_object()) {
        Json call = Json::MakeObject();
        call.set("name", a.tool_name);
        call.set("args", std::move(*args));
        part.set("functionCall", std::move(call));
        if (req.signatures) part.set("thoughtSignature", Signature(GeminiCallSigned(a.tool_name)));
      } else {
        std::string text = a.kind == Answer::Kind::kToolCall ? a.tool_arguments : a.text;
        if (req.signatures) part.set("thoughtSignature", Signature(text));
        part.set("text", std::move(text));
      }
      Json parts = ArrayOf(std::move(part));
      for (const auto& [name, more_args] : a.more_tool_calls) {
        auto parsed = ParseJson(more_args);
        Json more = Json::MakeObject();
        more.set("name", name);
        more.set("args", parsed.ok() ? std::move(*parsed) : Json::MakeObject());
        Json more_part = Json::MakeObject();
        more_part.set("functionCall", std::move(more));
        parts.push_back(std::move(more_part));
      }
      Json content = Json::MakeObject();
      // Thinking that used the whole cap leaves a candidate without parts.
      bool nothing = a.kind != Answer::Kind::kToolCall && a.text.empty() && a.thinking_tokens > 0;
      if (!nothing) content.set("parts", std::move(parts));
      content.set("role", "model");
      candidate.set("content", std::move(content));
      candidate.set("finishReason", finish);
      candidate.set("index", 0);
    }
    Json detail = Json::MakeObject();
    detail.set("modality", "TEXT");
    detail.set("tokenCount", usage.input_tokens);
    Usage answer_usage = usage;
    answer_usage.output_tokens -= a.thinking_tokens;
    Json um =
        TokenCounts(answer_usage, "promptTokenCount", "candidatesTokenCount", "totalTokenCount");
    if (a.thinking_tokens > 0) {
      um.set("thoughtsTokenCount", a.thinking_tokens);
      um.set("totalTokenCount", usage.input_tokens + usage.output_tokens);
    }
    um.set("promptTokensDetails", ArrayOf(std::move(detail)));
    if (usage.cached_input_tokens > 0) {
      um.set("cachedContentTokenCount", usage.cached_input_tokens);
      Json cached = Json::MakeObject();
      cached.set("modality", "TEXT");
      cached.set("tokenCount", usage.cached_input_tokens);
      um.set("cacheTokensDetails", ArrayOf(std::move(cached)));
    }
    Json body = Json::MakeObject();
    body.set("candidates", ArrayOf(std::move(candidate)));
    body.set("usageMetadata", std::move(um));
    body.set("modelVersion", req.model);
    body.set("responseId", MakeId("", id_seed));
    return http::JsonResponse(200, ToJson(body));
  }

  http::HttpResponse Error(int status, std::string_view message,
                           std::string_view type = {}) const override {
    Json err = Json::MakeObject();
    err.set("code", status);
    err.set("message", message);
    err.set("status", type.empty() ? std::string(StatusName(status)) : std::string(type));
    Json body = Json::MakeObject();
    body.set("error", std::move(err));
    return http::JsonResponse(status, ToJson(body, true));
  }

  std::string SchemaRejection(const CheckedSchema& where, std::string_view issue) const override {
    return "Invalid JSON payload received. " + std::string(issue) + " at '" + where.where + "'";
  }

  std::vector<http::Header> LimitHeaders(const LimitSnapshot&, bool) const override { return {}; }

  http::HttpResponse RateLimited(const LimitSnapshot& l, RetryHint hint) const override {
    std::string what = l.tokens_exceeded ? "input_token_count" : "requests";
    int64_t limit = l.tokens_exceeded ? l.tokens_limit : l.requests_limit;
    std::string msg =
        "You exceeded your current quota, please check your plan and billing "
        "details. Quota exceeded for metric: "
        "generativelanguage.googleapis.com/generate_content_" +
        what + ", limit: " + std::to_string(limit) + ". Please retry in " +
        std::to_string(static_cast<int64_t>(std::ceil(l.retry_after_s))) + "s.";
    Json err = Json::MakeObject();
    err.set("code", 429);
    err.set("message", msg);
    err.set("status", "RESOURCE_EXHAUSTED");
    if (hint != RetryHint::kNone) {
      // Gemini states the wait in a google.rpc.RetryInfo detail, not in headers.
      Json info = Json::MakeObject();
      info.set("@type", "type.googleapis.com/google.rpc.RetryInfo");
      info.set("retryDelay",
               std::to_string(static_cast<int64_t>(std::ceil(l.retry_after_s))) + "s");
      err.set("details", ArrayOf(std::move(info)));
    }
    Json body = Json::MakeObject();
    body.set("error", std::move(err));
    auto resp = http::JsonResponse(429, ToJson(body, true));
    if (hint == RetryHint::kRetryAfter) SetRetryHeaders(hint, l.retry_after_s, {}, resp);
    return resp;
  }
};

}  // namespace

std::unique_ptr<Dialect> MakeGeminiDialect() { return std::make_unique<GeminiDialect>(); }

}  // namespace structure::sim
