// Anthropic messages (POST /v1/messages) as the simulator serves it.

#include "sim/dialect.h"
#include "sim/file_parts.h"
#include "sim/model_checks.h"
#include "sim/thinking.h"
#include "sim/wire_util.h"

namespace structure::sim {
namespace {

const char* ErrorType(int status) {
  switch (status) {
    case 400:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 402:
      return "billing_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 504:
      return "timeout_error";
    case 529:
      return "overloaded_error";
    default:
      return status >= 500 ? "api_error" : "invalid_request_error";
  }
}

// The API refuses text blocks without visible text, whatever the role.
Status CheckTextBlock(const Json& block, const std::string& at, size_t j) {
  const Json* text = block.find("text");
  if (!text || !text->is_string()) {
    return InvalidArgument(at + ".content." + std::to_string(j) + ".text: Field required");
  }
  if (text->as_string().empty())
    return InvalidArgument("messages: text content blocks must be non-empty");
  if (text->as_string().find_first_not_of(" \t\r\n") == std::string::npos) {
    return InvalidArgument("messages: text content blocks must contain non-whitespace text");
  }
  return Status::Ok();
}

// A cache_control member at `at` (a block, a tool, the body): absent, or {"type":"ephemeral"}
// with an optional ttl "5m" | "1h". Counts it in `marks`.
Status CacheControl(const Json& at, const std::string& where, int& marks, bool& marked) {
  marked = false;
  const Json* cc = at.find("cache_control");
  if (!cc || cc->is_null()) return Status::Ok();
  std::string path = (where.empty() ? "" : where + ".") + "cache_control";
  const Json* type = cc->is_object() ? cc->find("type") : nullptr;
  if (!type || !type->is_string() || type->as_string() != "ephemeral") {
    return InvalidArgument(path + ".type: Input should be 'ephemeral'");
  }
  const Json* ttl = cc->find("ttl");
  if (ttl && !(ttl->is_string() && (ttl->as_string() == "5m" || ttl->as_string() == "1h"))) {
    return InvalidArgument(path + ".ttl: Input should be '5m' or '1h'");
  }
  marked = true;
  ++marks;
  return Status::Ok();
}

// Sets `marked` when a block of `content` (an array of blocks) carries cache_control.
Status BlocksMarked(const Json& content, const std::string& where, int& marks, bool& marked) {
  marked = false;
  if (!content.is_array()) return Status::Ok();
  size_t j = 0;
  for (const auto& block : content.as_array()) {
    bool one = false;
    STRUCTURE_RETURN_IF_ERROR(CacheControl(block, where + "." + std::to_string(j++), marks, one));
    marked = marked || one;
  }
  return Status::Ok();
}

Status ParseMessages(const Json& body, ChatRequest& out, int& marks) {
  const Json* system = body.find("system");
  if (system && !system->is_null()) {
    if (!system->is_string() && !system->is_array()) {
      return InvalidArgument("system: Input should be a valid string or a list of text blocks");
    }
    if (system->is_array()) {
      // Each block is its own piece of the prompt, so a breakpoint ends at its block.
      size_t j = 0;
      for (const auto& block : system->as_array()) {
        bool marked = false;
        std::string where = "system." + std::to_string(j++);
        STRUCTURE_RETURN_IF_ERROR(CacheControl(block, where, marks, marked));
        ChatMessage m{"system", ContentText(Json(Json::Array{block})), marked};
        out.messages.push_back(std::move(m));
      }
    } else {
      out.messages.push_back({"system", ContentText(*system)});
    }
  }
  const Json* messages = body.find("messages");
  if (!messages) return InvalidArgument("messages: Field required");
  if (!messages->is_array()) return InvalidArgument("messages: Input should be a valid list");
  if (messages->size() == 0) return InvalidArgument("messages: at least one message is required");
  size_t i = 0;
  for (const auto& m : messages->as_array()) {
    std::string at = "messages." + std::to_string(i++);
    const Json* role = m.find("role");
    if (!role || !role->is_string()) return InvalidArgument(at + ".role: Field required");
    const std::string& r = role->as_string();
    if (r != "user" && r != "assistant") {
      return InvalidArgument(at + ".role: Input should be 'user' or 'assistant'");
    }
    const Json* content = m.find("content");
    if (!content) return InvalidArgument(at + ".content: Field required");
    if (!content->is_string() && !content->is_array()) {
      return InvalidArgument(at +
                             ".content: Input should be a valid string or a list of "
                             "content blocks");
    }
    bool final_assistant = r == "assistant" && i == messages->size();
    if (content->is_array()) {
      size_t j = 0;
      for (const auto& block : content->as_array()) {
        const Json* type = block.find("type");
        if (!type || !type->is_string()) {
          return InvalidArgument(at + ".content." + std::to_string(j) + ".type: Field required");
        }
        if (type->as_string() == "text") STRUCTURE_RETURN_IF_ERROR(CheckTextBlock(block, at, j));
        ++j;
      }
    }
    bool empty = content->is_array() ? content->size() == 0 : content->as_string().empty();
    if (empty && !final_assistant) {
      return InvalidArgument(at +
                             ": all messages must have non-empty content except for the "
                             "optional final assistant message");
    }
    // Anthropic names a block's place with dots: messages.0.content.1.
    if (content->is_array()) {
      for (size_t k = 0; k < content->size(); ++k) {
        auto file = FilePartText(content->as_array()[k], at + ".content." + std::to_string(k));
        if (!file.ok()) return file.status();
      }
    }
    bool marked = false;
    STRUCTURE_RETURN_IF_ERROR(BlocksMarked(*content, at + ".content", marks, marked));
    out.messages.push_back({r, ContentText(*content), marked, TextPartCount(*content)});
  }
  // Automatic caching: a top-level cache_control marks the last block of the conversation.
  bool automatic = false;
  STRUCTURE_RETURN_IF_ERROR(CacheControl(body, "", marks, automatic));
  if (automatic && !out.messages.empty()) out.messages.back().cache_breakpoint = true;
  return Status::Ok();
}

Status ParseFormat(const Json& body, ChatRequest& out) {
  const Json* format = nullptr;
  std::string where = "output_config.format";
  if (const Json* oc = body.find("output_config"); oc && oc->is_object())
    format = oc->find("format");
  if (!format) {
    format = body.find("output_format");  // the beta spelling, still accepted
    where = "output_format";
  }
  if (!format || format->is_null()) return Status::Ok();
  const Json* type = format->find("type");
  if (!type || !type->is_string() || type->as_string() != "json_schema") {
    return InvalidArgument(where + ".type: Input should be 'json_schema'");
  }
  const Json* schema = format->find("schema");
  if (!schema || !schema->is_object()) return InvalidArgument(where + ".schema: Field required");
  out.mode = OutputMode::kJsonSchema;
  out.schema = *schema;
  out.checks.push_back({"anthropic-strict", where + ".schema", *schema});
  return Status::Ok();
}

Status ParseTools(const Json& body, ChatRequest& out, int& marks) {
  const Json* tools = body.find("tools");
  const Json* choice = body.find("tool_choice");
  if (!tools || tools->is_null()) return Status::Ok();
  if (!tools->is_array()) return InvalidArgument("tools: Input should be a valid list");
  size_t i = 0;
  for (const auto& tool : tools->as_array()) {
    std::string at = "tools." + std::to_string(i++);
    const Json* name = tool.find("name");
    if (!name || !name->is_string()) return InvalidArgument(at + ".name: Field required");
    const Json* type = tool.find("type");
    bool custom = !type || (type->is_string() && type->as_string() == "custom");
    const Json* schema = tool.find("input_schema");
    if (custom && (!schema || !schema->is_object())) {
      return InvalidArgument(at + ".custom.input_schema: Field required");
    }
    ToolSpec spec{name->as_string(), schema ? *schema : Json::MakeObject()};
    STRUCTURE_RETURN_IF_ERROR(CacheControl(tool, at, marks, spec.cache_breakpoint));
    const Json* strict = tool.find("strict");
    if (strict && strict->is_bool() && strict->as_bool()) {
      out.checks.push_back({"anthropic-strict", at + ".custom.input_schema", spec.schema});
    }
    out.tools.push_back(std::move(spec));
  }
  bool call = !out.tools.empty();
  if (choice && choice->is_object()) {
    const Json* type = choice->find("type");
    std::string t = type && type->is_string() ? type->as_string() : "";
    if (t == "none") {
      call = false;
    } else if (t == "tool") {
      STRUCTURE_RETURN_IF_ERROR(
          ForceTool(choice->find("name"), "tool_choice.tool.name: Field required",
                    "tool_choice.name: Tool '", "' not found in provided tools", out));
    } else if (t != "auto" && t != "any") {
      return InvalidArgument("tool_choice: Input tag '" + t +
                             "' found using 'type' does not "
                             "match any of the expected tags: 'auto', 'any', 'tool', 'none'");
    }
  }
  PreferToolCall(call, out);
  return Status::Ok();
}

constexpr const char* kThinkingDocs =
    "Please consult our documentation at "
    "https://docs.claude.com/en/docs/build-with-claude/extended-thinking";

// With thinking on, the last assistant turn of a tool-use cycle must start with its thinking
// block, and every thinking block must carry the signature it was issued with.
Status CheckThinkingReplay(const Json& messages) {
  const auto& list = messages.as_array();
  for (size_t i = 0; i < list.size(); ++i) {
    const Json* content = list[i].find("content");
    if (StringAtKey(list[i], "role") != "assistant" || !content || !content->is_array()) continue;
    bool tool_use = false;
    for (size_t j = 0; j < content->size(); ++j) {
      const Json& block = content->as_array()[j];
      std::string type = StringAtKey(block, "type");
      tool_use = tool_use || type == "tool_use";
      if (type == "thinking" &&
          !ValidSignature(StringAtKey(block, "thinking"), StringAtKey(block, "signature"))) {
        return InvalidArgument("messages." + std::to_string(i) + ".content." + std::to_string(j) +
                               ": Invalid `signature` in `thinking` block");
      }
    }
    bool last_assistant = true;
    for (size_t k = i + 1; k < list.size(); ++k) {
      last_assistant = last_assistant && StringAtKey(list[k], "role") != "assistant";
    }
    if (!tool_use || !last_assistant || content->size() == 0) continue;
    std::string first = StringAtKey(content->as_array()[0], "type");
    if (first != "thinking" && first != "redacted_thinking") {
      return InvalidArgument(
          "messages." + std::to_string(i) +
          ".content.0.type: Expected `thinking` or `redacted_thinking`, but found `" + first +
          "`. When `thinking` is enabled, a final `assistant` message must start with a thinking "
          "block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We "
          "recommend you include thinking blocks from previous turns. To avoid this "
          "requirement, disable `thinking`. " +
          kThinkingDocs);
    }
  }
  return Status::Ok();
}

// thinking: enabled (a budget), adaptive (guided by output_config.effort) or disabled, with the
// API's checks on the budget and on what thinking rules out.
Status ParseThinking(const Json& body, ChatRequest& out) {
  const Json* th = body.find("thinking");
  if (!th || th->is_null()) return Status::Ok();
  std::string type = StringAtKey(*th, "type");
  if (type == "disabled") return Status::Ok();
  if (type == "enabled") {
    const Json* budget = th->find("budget_tokens");
    if (!budget) return InvalidArgument("thinking.enabled.budget_tokens: Field required");
    if (!budget->is_integral() || budget->as_int() < 1024) {
      return InvalidArgument(
          "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
    }
    if (out.max_tokens && *out.max_tokens <= budget->as_int()) {
      return InvalidArgument("`max_tokens` must be greater than `thinking.budget_tokens`. " +
                             std::string(kThinkingDocs) + "#max-tokens-and-context-window-size");
    }
    out.thinking_tokens = BudgetTokens(budget->as_int());
  } else if (type == "adaptive") {
    const Json* oc = body.find("output_config");
    std::string effort = oc && oc->is_object() ? StringAtKey(*oc, "effort") : "";
    out.thinking_tokens = EffortTokens(effort.empty() ? "high" : effort);
  } else {
    return InvalidArgument("thinking: Input tag '" + type +
                           "' found using 'type' does not match any of the expected tags: "
                           "'adaptive', 'disabled', 'enabled'");
  }
  if (const Json* t = body.find("temperature"); t && t->is_number() && t->as_double() != 1.0) {
    return InvalidArgument(
        "`temperature` may only be set to 1 when thinking is enabled or in adaptive mode. " +
        std::string(kThinkingDocs));
  }
  if (const Json* choice = body.find("tool_choice"); choice && choice->is_object()) {
    std::string t = StringAtKey(*choice, "type");
    if (t == "any" || t == "tool") {
      return InvalidArgument("Thinking may not be enabled when tool_choice forces tool use.");
    }
  }
  return CheckThinkingReplay(*body.find("messages"));
}

class AnthropicDialect final : public Dialect {
 public:
  Provider provider() const override { return Provider::kAnthropic; }

  // The path of the kind table (providers/kinds.h).
  bool Serves(const http::HttpRequest& r) const override {
    return OnPathOf(r.path, providers::ProviderKind::kAnthropic);
  }

  std::optional<http::HttpResponse> CheckAuth(const http::HttpRequest& r,
                                              const KeyPolicy& keys) const override {
    const std::string* key = r.FindHeader("x-api-key");
    if (!key || key->empty()) return Error(401, "x-api-key header is required");
    if (keys.invalid_keys.count(*key)) return Error(401, "invalid x-api-key");
    const std::string* version = r.FindHeader("anthropic-version");
    if (!version || version->empty()) return Error(400, "anthropic-version: header is required");
    return std::nullopt;
  }

  Result<ChatRequest> Parse(const http::HttpRequest& r) const override {
    if (r.method != "POST") return Status(Code::kNotFound, "Not Found");
    auto body = ParseBodyObject(r.body);
    if (!body.ok())
      return InvalidArgument("There was an error parsing the body: " + body.status().message());
    ChatRequest out;
    out.provider = Provider::kAnthropic;
    const Json* model = body->find("model");
    if (!model) return InvalidArgument("model: Field required");
    if (!model->is_string() || model->as_string().empty()) {
      return InvalidArgument("model: Input should be a valid string");
    }
    out.model = model->as_string();
    const Json* max_tokens = body->find("max_tokens");
    if (!max_tokens) return InvalidArgument("max_tokens: Field required");
    if (!max_tokens->is_integral() || max_tokens->as_int() < 1) {
      return InvalidArgument("max_tokens: Input should be greater than or equal to 1");
    }
    out.max_tokens = max_tokens->as_int();
    int marks = 0;  // blocks with cache_control (at most 4)
    STRUCTURE_RETURN_IF_ERROR(ParseMessages(*body, out, marks));
    STRUCTURE_RETURN_IF_ERROR(ParseFormat(*body, out));
    STRUCTURE_RETURN_IF_ERROR(ParseTools(*body, out, marks));
    out.rejected = CheckAnthropicParameters(*body, out.model);
    if (!out.rejected) STRUCTURE_RETURN_IF_ERROR(ParseThinking(*body, out));
    if (marks > 4) {
      return InvalidArgument("A maximum of 4 blocks with cache_control may be provided. Found " +
                             std::to_string(marks) + ".");
    }
    STRUCTURE_RETURN_IF_ERROR(RejectStreaming(*body, "messages"));
    return out;
  }

  http::HttpResponse Render(const ChatRequest& req, const Answer& a, const Usage& usage,
                            uint64_t id_seed) const override {
    Json content = Json::MakeArray();
    std::string stop = a.truncated ? "max_tokens" : "end_turn";
    if (a.thinking_tokens > 0) {
      Json block = Json::MakeObject();
      block.set("type", "thinking");
      block.set("thinking", kThinkingText);
      block.set("signature", Signature(kThinkingText));
      content.push_back(std::move(block));
    }
    if (a.kind == Answer::Kind::kToolCall) {
      auto input = ParseJson(a.tool_arguments);
      if (input.ok() && input->is_object()) {
        Json block = Json::MakeObject();
        block.set("type", "tool_use");
        block.set("id", MakeId("toolu_", id_seed + 1));
        block.set("name", a.tool_name);
        block.set("input", std::move(*input));
        content.push_back(std::move(block));
        for (size_t i = 0; i < a.more_tool_calls.size(); ++i) {
          auto more_input = ParseJson(a.more_tool_calls[i].second);
          Json more = Json::MakeObject();
          more.set("type", "tool_use");
          more.set("id", MakeId("toolu_", id_seed + 10 + i));
          more.set("name", a.more_tool_calls[i].first);
          more.set("input", more_input.ok() ? std::move(*more_input) : Json::MakeObject());
          content.push_back(std::move(more));
        }
        if (!a.truncated) stop = "tool_use";
      } else {
        // The API only ever returns parsed tool input; broken arguments surface as text.
        content.push_back(TextBlock(a.tool_arguments));
      }
    } else {
      if (!a.text.empty()) content.push_back(TextBlock(a.text));
      if (a.kind == Answer::Kind::kRefusal || a.kind == Answer::Kind::kSafety) stop = "refusal";
    }
    Json u = Json::MakeObject();
    // input_tokens counts what follows the last cache breakpoint only.
    u.set("input_tokens",
          usage.input_tokens - usage.cached_input_tokens - usage.cache_write_tokens);
    u.set("cache_creation_input_tokens", usage.cache_write_tokens);
    u.set("cache_read_input_tokens", usage.cached_input_tokens);
    Json cache_creation = Json::MakeObject();
    cache_creation.set("ephemeral_5m_input_tokens", usage.cache_write_tokens);
    cache_creation.set("ephemeral_1h_input_tokens", 0);
    u.set("cache_creation", std::move(cache_creation));
    u.set("output_tokens", usage.output_tokens);
    if (ReportsThinkingTokens(req.model)) {
      Json details = Json::MakeObject();
      details.set("thinking_tokens", a.thinking_tokens);
      u.set("output_tokens_details", std::move(details));
    }
    u.set("service_tier", "standard");
    Json body = Json::MakeObject();
    body.set("id", MakeId("msg_", id_seed));
    body.set("type", "message");
    body.set("role", "assistant");
    body.set("model", req.model);
    body.set("content", std::move(content));
    body.set("stop_reason", stop);
    body.set("stop_sequence", nullptr);
    if (stop == "refusal") {
      Json details = Json::MakeObject();
      details.set("type", "refusal");
      details.set("category", nullptr);
      details.set("explanation", nullptr);
      body.set("stop_details", std::move(details));
    } else {
      body.set("stop_details", nullptr);
    }
    body.set("usage", std::move(u));
    auto resp = http::JsonResponse(200, ToJson(body));
    resp.SetHeader("request-id", MakeId("req_", id_seed + 2));
    return resp;
  }

  http::HttpResponse Error(int status, std::string_view message,
                           std::string_view type = {}) const override {
    Json err = Json::MakeObject();
    err.set("type", type.empty() ? std::string(ErrorType(status)) : std::string(type));
    err.set("message", message);
    Json body = Json::MakeObject();
    body.set("type", "error");
    body.set("error", std::move(err));
    body.set("request_id", MakeId("req_", std::hash<std::string_view>{}(message) + status));
    return http::JsonResponse(status, ToJson(body));
  }

  std::string SchemaRejection(const CheckedSchema& where, std::string_view issue) const override {
    return where.where + ": " + std::string(issue);
  }

  std::vector<http::Header> LimitHeaders(const LimitSnapshot& l, bool /*limited*/) const override {
    std::vector<http::Header> h;
    if (l.requests_limit > 0) {
      h.emplace_back("anthropic-ratelimit-requests-limit", std::to_string(l.requests_limit));
      h.emplace_back("anthropic-ratelimit-requests-remaining",
                     std::to_string(l.requests_remaining));
      h.emplace_back("anthropic-ratelimit-requests-reset", Rfc3339(l.requests_reset_s));
    }
    if (l.tokens_limit > 0) {
      for (const char* kind : {"tokens", "input-tokens"}) {
        std::string p = std::string("anthropic-ratelimit-") + kind;
        h.emplace_back(p + "-limit", std::to_string(l.tokens_limit));
        h.emplace_back(p + "-remaining", std::to_string(l.tokens_remaining));
        h.emplace_back(p + "-reset", Rfc3339(l.tokens_reset_s));
      }
    }
    return h;
  }

  http::HttpResponse RateLimited(const LimitSnapshot& l, RetryHint hint) const override {
    std::string msg = l.tokens_exceeded
                          ? "This request would exceed the rate limit for your organization of " +
                                std::to_string(l.tokens_limit) + " input tokens per minute."
                          : "This request would exceed the rate limit for your organization of " +
                                std::to_string(l.requests_limit) + " requests per minute.";
    auto resp = Error(429, msg);
    // Anthropic sends retry-after along with its rate-limit headers.
    if (hint == RetryHint::kRateLimitHeaders) {
      SetRetryHeaders(RetryHint::kRetryAfter, l.retry_after_s, {}, resp);
    }
    SetRetryHeaders(hint, l.retry_after_s, LimitHeaders(l, true), resp);
    return resp;
  }

 private:
  static Json TextBlock(const std::string& text) {
    Json block = Json::MakeObject();
    block.set("type", "text");
    block.set("text", text);
    return block;
  }
};

}  // namespace

std::unique_ptr<Dialect> MakeAnthropicDialect() { return std::make_unique<AnthropicDialect>(); }

}  // namespace structure::sim
