// OpenAI chat completions (POST /v1/chat/completions) as the simulator serves it.
#include <algorithm>
#include <cctype>

#include "sim/dialect.h"
#include "sim/file_parts.h"
#include "sim/model_checks.h"
#include "sim/openai/sim_responses.h"
#include "sim/thinking.h"
#include "sim/wire_util.h"

namespace structure::sim {
namespace {

bool ValidFunctionName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  }
  return true;
}

bool ContainsJsonWord(const ChatRequest& request) {
  for (const auto& m : request.messages) {
    for (size_t i = 0; i + 4 <= m.text.size(); ++i) {
      if (std::tolower(static_cast<unsigned char>(m.text[i])) == 'j' &&
          std::tolower(static_cast<unsigned char>(m.text[i + 1])) == 's' &&
          std::tolower(static_cast<unsigned char>(m.text[i + 2])) == 'o' &&
          std::tolower(static_cast<unsigned char>(m.text[i + 3])) == 'n') {
        return true;
      }
    }
  }
  return false;
}

// reasoning_effort (OpenAI), or OpenRouter's reasoning {effort | max_tokens}: how much the
// simulated model thinks. Models that think unasked (the model table's thinks_by_default) think
// at medium. What a model does not take is refused by CheckOpenAiParameters.
Status ParseReasoning(const Json& body, ChatRequest& out) {
  std::string effort;
  if (const Json* e = body.find("reasoning_effort"); e && !e->is_null()) {
    effort = e->is_string() ? e->as_string() : "";
    const auto& levels = providers::ThinkingLevels();
    if (std::find(levels.begin(), levels.end(), effort) == levels.end()) {
      return InvalidArgument("Invalid value: '" + effort +
                             "'. Supported values are: 'none', 'minimal', 'low', 'medium', "
                             "'high', 'xhigh', and 'max'.");
    }
    out.thinking_tokens = EffortTokens(effort);
  } else if (const Json* r = body.find("reasoning"); r && r->is_object()) {
    const Json* e = r->find("effort");
    const Json* m = r->find("max_tokens");
    if (m && m->is_integral())
      out.thinking_tokens = BudgetTokens(m->as_int());
    else
      out.thinking_tokens = EffortTokens(e && e->is_string() ? e->as_string() : "medium");
  } else if (FamilyOf(providers::ProviderKind::kOpenAi, out.model).thinks_by_default) {
    out.thinking_tokens = EffortTokens("medium");
  }
  out.rejected = CheckOpenAiParameters(body, out.model);
  return Status::Ok();
}

Status ParseMessages(const Json& body, ChatRequest& out) {
  const Json* messages = body.find("messages");
  if (!messages) return InvalidArgument("Missing required parameter: 'messages'.");
  if (!messages->is_array()) {
    return InvalidArgument("Invalid type for 'messages': expected an array, but got " +
                           std::string(messages->is_object() ? "an object" : "a scalar") +
                           " instead.");
  }
  if (messages->size() == 0) {
    return InvalidArgument(
        "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an "
        "empty array instead.");
  }
  size_t i = 0;
  for (const auto& m : messages->as_array()) {
    std::string at = "messages[" + std::to_string(i++) + "]";
    const Json* role = m.find("role");
    if (!role || !role->is_string())
      return InvalidArgument("Missing required parameter: '" + at + ".role'.");
    const std::string& r = role->as_string();
    if (r != "system" && r != "developer" && r != "user" && r != "assistant" && r != "tool" &&
        r != "function") {
      return InvalidArgument("Invalid value: '" + r +
                             "'. Supported values are: 'system', "
                             "'assistant', 'user', 'function', 'tool', and 'developer'.");
    }
    const Json* content = m.find("content");
    const Json* tool_calls = m.find("tool_calls");
    if ((!content || content->is_null()) && !(r == "assistant" && tool_calls)) {
      return InvalidArgument("Missing required parameter: '" + at + ".content'.");
    }
    ChatMessage msg;
    msg.role = r == "developer" ? "system" : (r == "function" ? "tool" : r);
    if (content) STRUCTURE_RETURN_IF_ERROR(CheckFileParts(*content, at + ".content"));
    msg.text = content ? ContentText(*content) : "";
    if (tool_calls && tool_calls->is_array()) {
      for (const auto& call : tool_calls->as_array()) {
        const Json* fn = call.find("function");
        const Json* args = fn ? fn->find("arguments") : nullptr;
        if (args && args->is_string())
          msg.text += (msg.text.empty() ? "" : "\n") + args->as_string();
      }
    }
    out.messages.push_back(std::move(msg));
  }
  return Status::Ok();
}

// llama-server's own field: the schema next to the messages, instead of response_format.
Status ParseTopLevelJsonSchema(const Json& body, ChatRequest& out) {
  const Json* js = body.find("json_schema");
  if (!js || js->is_null()) return Status::Ok();
  const Json* rf = body.find("response_format");
  if (rf && !rf->is_null()) {
    return InvalidArgument("Either \"json_schema\" or \"grammar\" can be specified, but not both");
  }
  if (!js->is_object() && !js->is_bool()) {
    return InvalidArgument("Invalid type for 'json_schema': expected a JSON Schema.");
  }
  out.mode = OutputMode::kJsonSchema;
  out.schema = *js;
  return Status::Ok();
}

Status ParseResponseFormat(const Json& body, ChatRequest& out) {
  const Json* rf = body.find("response_format");
  if (!rf || rf->is_null()) return ParseTopLevelJsonSchema(body, out);
  const Json* type = rf->find("type");
  if (!type || !type->is_string()) {
    return InvalidArgument("Missing required parameter: 'response_format.type'.");
  }
  const std::string& t = type->as_string();
  if (t == "text") return Status::Ok();
  if (t == "json_object") {
    // llama.cpp-based servers (llamafile) take the schema inside json_object.
    if (const Json* schema = rf->find("schema"); schema && schema->is_object()) {
      out.mode = OutputMode::kJsonSchema;
      out.schema = *schema;
      return Status::Ok();
    }
    if (!ContainsJsonWord(out)) {
      return InvalidArgument(
          "'messages' must contain the word 'json' in some form, to use "
          "'response_format' of type 'json_object'.");
    }
    out.mode = OutputMode::kJsonObject;
    return Status::Ok();
  }
  if (t != "json_schema") {
    return InvalidArgument("Invalid value: '" + t +
                           "'. Supported values are: 'json_object', "
                           "'json_schema', and 'text'.");
  }
  const Json* js = rf->find("json_schema");
  if (!js || !js->is_object()) {
    return InvalidArgument("Missing required parameter: 'response_format.json_schema'.");
  }
  const Json* name = js->find("name");
  if (!name || !name->is_string()) {
    return InvalidArgument("Missing required parameter: 'response_format.json_schema.name'.");
  }
  if (!ValidFunctionName(name->as_string())) {
    return InvalidArgument(
        "Invalid 'response_format.json_schema.name': string does not match "
        "pattern. Expected a string that matches the pattern "
        "'^[a-zA-Z0-9_-]+$'.");
  }
  const Json* schema = js->find("schema");
  out.mode = OutputMode::kJsonSchema;
  out.schema = schema ? *schema : Json::MakeObject();
  const Json* strict = js->find("strict");
  if (strict && strict->is_bool() && strict->as_bool()) {
    out.checks.push_back(
        {"openai-strict", "response_format '" + name->as_string() + "'", out.schema});
  }
  return Status::Ok();
}

Status ParseTools(const Json& body, ChatRequest& out) {
  const Json* tools = body.find("tools");
  const Json* choice = body.find("tool_choice");
  if (!tools || tools->is_null()) {
    if (choice && !choice->is_null()) {
      return InvalidArgument(
          "Invalid value for 'tool_choice': 'tool_choice' is only allowed "
          "when 'tools' are specified.");
    }
    return Status::Ok();
  }
  if (!tools->is_array()) return InvalidArgument("Invalid type for 'tools': expected an array.");
  size_t i = 0;
  for (const auto& tool : tools->as_array()) {
    std::string at = "tools[" + std::to_string(i++) + "]";
    const Json* fn = tool.find("function");
    const Json* name = fn ? fn->find("name") : nullptr;
    if (!name || !name->is_string()) {
      return InvalidArgument("Missing required parameter: '" + at + ".function.name'.");
    }
    if (!ValidFunctionName(name->as_string())) {
      return InvalidArgument("Invalid '" + at +
                             ".function.name': string does not match pattern. "
                             "Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.");
    }
    const Json* params = fn->find("parameters");
    ToolSpec spec{name->as_string(), params ? *params : Json::MakeObject()};
    const Json* strict = fn->find("strict");
    if (strict && strict->is_bool() && strict->as_bool()) {
      out.checks.push_back({"openai-strict", "function '" + spec.name + "'", spec.schema});
    }
    out.tools.push_back(std::move(spec));
  }
  bool call = !out.tools.empty();
  if (choice && choice->is_string()) {
    const std::string& c = choice->as_string();
    if (c == "none")
      call = false;
    else if (c != "auto" && c != "required") {
      return InvalidArgument("Invalid value: '" + c +
                             "'. Supported values are: 'none', 'auto', "
                             "and 'required'.");
    }
  } else if (choice && choice->is_object()) {
    const Json* fn = choice->find("function");
    STRUCTURE_RETURN_IF_ERROR(ForceTool(
        fn ? fn->find("name") : nullptr, "Missing required parameter: 'tool_choice.function.name'.",
        "Invalid value for 'tool_choice': function '", "' not found in 'tools'.", out));
  }
  PreferToolCall(call, out);
  return Status::Ok();
}

// A call's function object. Arguments are JSON text; a call without arguments has no
// `arguments` member at all in the kArgumentsMissing shape.
Json Function(const std::string& name, const std::string& arguments, ReplyShape shape) {
  Json fn = Json::MakeObject();
  fn.set("name", name);
  auto parsed = ParseJson(arguments);
  bool none = parsed.ok() && parsed->is_object() && parsed->size() == 0;
  if (!(none && shape == ReplyShape::kArgumentsMissing)) fn.set("arguments", arguments);
  return fn;
}

// Mistral's reasoning-model content: a thinking part (its own list of text parts), then the
// answer as a text part.
Json ContentParts(const std::string& text) {
  Json thinking_text = Json::MakeObject();
  thinking_text.set("type", "text");
  thinking_text.set("text", kThinkingText);
  Json thinking = Json::MakeObject();
  thinking.set("type", "thinking");
  thinking.set("thinking", ArrayOf(std::move(thinking_text)));
  thinking.set("closed", true);
  Json answer = Json::MakeObject();
  answer.set("type", "text");
  answer.set("text", text);
  Json parts = ArrayOf(std::move(thinking));
  parts.push_back(std::move(answer));
  return parts;
}

// A reply in Mistral's body: its own field order and usage without the details.
http::HttpResponse Mistral(const ChatRequest& req, Json choice, Json usage, uint64_t id_seed) {
  Json body = Json::MakeObject();
  body.set("id", MakeId("", id_seed));
  body.set("created", UnixNow());
  body.set("model", req.model);
  body.set("usage", std::move(usage));
  body.set("object", "chat.completion");
  body.set("choices", ArrayOf(std::move(choice)));
  return http::JsonResponse(200, ToJson(body));
}

class OpenAiDialect final : public Dialect {
 public:
  Provider provider() const override { return Provider::kOpenAi; }

  // The path of the kind table (providers/kinds.h).
  bool Serves(const http::HttpRequest& r) const override {
    return OnPathOf(r.path, providers::ProviderKind::kOpenAi) || r.path == kResponsesPath;
  }

  std::optional<http::HttpResponse> CheckAuth(const http::HttpRequest& r,
                                              const KeyPolicy& keys) const override {
    // No key at all is how local OpenAI-compatible servers (vLLM, llama.cpp, llamafile) are
    // called, and the simulator stands in for them too: chat completions without a key are
    // answered. The Files and Batch APIs (OpenAI's own) want one, and a key the simulator was
    // told to reject gets OpenAI's 401.
    std::string key = BearerToken(r);
    if (key.empty() && !OnPathOf(r.path, providers::ProviderKind::kOpenAi)) {
      return Error(401,
                   "You didn't provide an API key. You need to provide your API key in an "
                   "Authorization header using Bearer auth (i.e. Authorization: Bearer "
                   "YOUR_KEY), or as the password field (with blank username) if you're "
                   "accessing the API from your browser and are prompted for a username "
                   "and password. You can obtain an API key from "
                   "https://platform.openai.com/account/api-keys.");
    }
    if (keys.invalid_keys.count(key)) {
      auto resp = Error(401, "Incorrect API key provided: " + MaskKey(key) +
                                 ". You can find your API key at "
                                 "https://platform.openai.com/account/api-keys.");
      return WithCode(std::move(resp), "invalid_api_key");
    }
    return std::nullopt;
  }

  Result<ChatRequest> Parse(const http::HttpRequest& r) const override {
    if (r.method != "POST")
      return Status(Code::kNotFound, "Invalid URL (" + r.method + " " + r.path + ")");
    auto body = ParseBodyObject(r.body);
    if (!body.ok()) {
      return InvalidArgument(
          "We could not parse the JSON body of your request. (HINT: This "
          "likely means you aren't using your HTTP library correctly. The "
          "OpenAI API expects a JSON payload, but what was sent was not valid "
          "JSON.)");
    }
    if (r.path == kResponsesPath) return ParseResponsesRequest(*body);
    ChatRequest out;
    out.provider = Provider::kOpenAi;
    const Json* model = body->find("model");
    if (!model || !model->is_string() || model->as_string().empty()) {
      return InvalidArgument("you must provide a model parameter");
    }
    out.model = model->as_string();
    STRUCTURE_RETURN_IF_ERROR(ParseMessages(*body, out));
    STRUCTURE_RETURN_IF_ERROR(ParseResponseFormat(*body, out));
    STRUCTURE_RETURN_IF_ERROR(ParseTools(*body, out));
    STRUCTURE_RETURN_IF_ERROR(ParseReasoning(*body, out));
    for (const char* key : {"max_completion_tokens", "max_tokens"}) {
      const Json* v = body->find(key);
      if (v && !v->is_null()) {
        if (!v->is_integral() || v->as_int() < 1) {
          return InvalidArgument("Invalid '" + std::string(key) +
                                 "': integer below minimum "
                                 "value. Expected a value >= 1.");
        }
        out.max_tokens = v->as_int();
        break;
      }
    }
    STRUCTURE_RETURN_IF_ERROR(RejectStreaming(*body, "chat completions"));
    if (const Json* key = body->find("prompt_cache_key"); key && !key->is_null()) {
      if (!key->is_string()) {
        return InvalidArgument("Invalid type for 'prompt_cache_key': expected a string.");
      }
      if (key->as_string().size() > 64) {
        return InvalidArgument(
            "Invalid 'prompt_cache_key': string too long. Expected a string with maximum length "
            "64, but got a string with length " +
            std::to_string(key->as_string().size()) + " instead.");
      }
      out.prompt_cache_key = key->as_string();
    }
    return out;
  }

  http::HttpResponse Render(const ChatRequest& req, const Answer& a, const Usage& usage,
                            uint64_t id_seed) const override {
    if (req.responses_api) return RenderResponses(req, a, usage, id_seed);
    Json message = Json::MakeObject();
    message.set("role", "assistant");
    std::string finish = a.truncated ? "length" : "stop";
    if (a.kind == Answer::Kind::kToolCall) {
      message.set("content", nullptr);
      message.set("refusal", nullptr);
      Json call = Json::MakeObject();
      call.set("id", MakeId("call_", id_seed + 1));
      call.set("type", "function");
      call.set("function", Function(a.tool_name, a.tool_arguments, a.shape));
      Json calls = ArrayOf(std::move(call));
      for (size_t i = 0; i < a.more_tool_calls.size(); ++i) {
        Json more_fn = Function(a.more_tool_calls[i].first, a.more_tool_calls[i].second, a.shape);
        Json more = Json::MakeObject();
        more.set("id", MakeId("call_", id_seed + 10 + i));
        more.set("type", "function");
        more.set("function", std::move(more_fn));
        calls.push_back(std::move(more));
      }
      message.set("tool_calls", std::move(calls));
      // A call forced by name finishes with "stop", as the real API does.
      if (!a.truncated) finish = req.forced_tool.empty() ? "tool_calls" : "stop";
    } else if (a.kind == Answer::Kind::kRefusal || a.kind == Answer::Kind::kSafety) {
      message.set("content", nullptr);
      message.set("refusal", a.text);
    } else if (a.shape == ReplyShape::kContentParts) {
      message.set("content", ContentParts(a.text));
    } else {
      message.set("content", a.text);
      message.set("refusal", nullptr);
    }
    if (a.shape != ReplyShape::kContentParts) message.set("annotations", Json::MakeArray());
    Json choice = Json::MakeObject();
    choice.set("index", 0);
    choice.set("message", std::move(message));
    choice.set("logprobs", nullptr);
    choice.set("finish_reason", finish);

    Json u = TokenCounts(usage, "prompt_tokens", "completion_tokens", "total_tokens");
    if (a.shape == ReplyShape::kContentParts)
      return Mistral(req, std::move(choice), std::move(u), id_seed);
    Json ptd = Json::MakeObject();
    ptd.set("cached_tokens", usage.cached_input_tokens);
    ptd.set("audio_tokens", 0);
    u.set("prompt_tokens_details", std::move(ptd));
    Json ctd = Json::MakeObject();
    ctd.set("reasoning_tokens", a.thinking_tokens);
    ctd.set("audio_tokens", 0);
    ctd.set("accepted_prediction_tokens", 0);
    ctd.set("rejected_prediction_tokens", 0);
    u.set("completion_tokens_details", std::move(ctd));

    Json body = Json::MakeObject();
    body.set("id", MakeId("chatcmpl-", id_seed));
    body.set("object", "chat.completion");
    body.set("created", UnixNow());
    body.set("model", req.model);
    body.set("choices", ArrayOf(std::move(choice)));
    body.set("usage", std::move(u));
    body.set("service_tier", "default");
    body.set("system_fingerprint", "fp_structure_sim");
    auto resp = http::JsonResponse(200, ToJson(body));
    resp.SetHeader("x-request-id", MakeId("req_", id_seed + 2));
    resp.SetHeader("openai-version", "2020-10-01");
    resp.SetHeader("openai-processing-ms", "1");
    return resp;
  }

  http::HttpResponse Error(int status, std::string_view message,
                           std::string_view type = {}) const override {
    std::string t(type);
    if (t.empty()) {
      if (status == 429)
        t = "requests";
      else if (status >= 500)
        t = "server_error";
      else
        t = "invalid_request_error";
    }
    Json err = Json::MakeObject();
    err.set("message", message);
    err.set("type", t);
    err.set("param", nullptr);
    err.set("code", status == 429 ? Json("rate_limit_exceeded") : Json());
    Json body = Json::MakeObject();
    body.set("error", std::move(err));
    return http::JsonResponse(status, ToJson(body));
  }

  // OpenAI names the parameter and the kind of refusal ("unsupported_parameter").
  http::HttpResponse ParamError(const ParamRejection& r) const override {
    Json err = Json::MakeObject();
    err.set("message", r.message);
    err.set("type", "invalid_request_error");
    err.set("param", r.param.empty() ? Json() : Json(r.param));
    err.set("code",
            r.code.empty() ? (r.status == 400 ? Json() : Json(int64_t{r.status})) : Json(r.code));
    return http::JsonResponse(r.status, ToJson(Json(Json::Object{{"error", std::move(err)}})));
  }

  std::string SchemaRejection(const CheckedSchema& where, std::string_view issue) const override {
    return "Invalid schema for " + where.where + ": " + std::string(issue);
  }

  std::vector<http::Header> LimitHeaders(const LimitSnapshot& l, bool /*limited*/) const override {
    std::vector<http::Header> h;
    if (l.requests_limit > 0) {
      h.emplace_back("x-ratelimit-limit-requests", std::to_string(l.requests_limit));
      h.emplace_back("x-ratelimit-remaining-requests", std::to_string(l.requests_remaining));
      h.emplace_back("x-ratelimit-reset-requests", GoDuration(l.requests_reset_s));
    }
    if (l.tokens_limit > 0) {
      h.emplace_back("x-ratelimit-limit-tokens", std::to_string(l.tokens_limit));
      h.emplace_back("x-ratelimit-remaining-tokens", std::to_string(l.tokens_remaining));
      h.emplace_back("x-ratelimit-reset-tokens", GoDuration(l.tokens_reset_s));
    }
    return h;
  }

  http::HttpResponse RateLimited(const LimitSnapshot& l, RetryHint hint) const override {
    std::string what = l.tokens_exceeded ? "tokens" : "requests";
    int64_t limit = l.tokens_exceeded ? l.tokens_limit : l.requests_limit;
    std::string msg = "Rate limit reached for sim-model in organization org-structure-sim on " +
                      what + " per min (" + (l.tokens_exceeded ? "TPM" : "RPM") + "): Limit " +
                      std::to_string(limit) + ". Please try again in " +
                      GoDuration(l.retry_after_s) + ".";
    auto resp = Error(429, msg, what);
    SetRetryHeaders(hint, l.retry_after_s, LimitHeaders(l, true), resp);
    return resp;
  }

 private:
  static http::HttpResponse WithCode(http::HttpResponse resp, const char* code) {
    auto parsed = ParseJson(resp.body);
    if (parsed.ok()) {
      (*parsed)["error"].set("code", code);
      resp.body = ToJson(*parsed);
    }
    return resp;
  }
};

}  // namespace

std::unique_ptr<Dialect> MakeOpenAiDialect() { return std::make_unique<OpenAiDialect>(); }

}  // namespace structure::sim
