// Anthropic messages (POST /v1/messages) as the simulator serves it.

#include "apps/sim/dialect.h"
#include "apps/sim/wire_util.h"

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

Status ParseMessages(const Json& body, ChatRequest& out) {
  const Json* system = body.find("system");
  if (system && !system->is_null()) {
    if (!system->is_string() && !system->is_array()) {
      return InvalidArgument("system: Input should be a valid string or a list of text blocks");
    }
    out.messages.push_back({"system", ContentText(*system)});
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
    if (content->is_array()) {
      size_t j = 0;
      for (const auto& block : content->as_array()) {
        const Json* type = block.find("type");
        if (!type || !type->is_string()) {
          return InvalidArgument(at + ".content." + std::to_string(j) + ".type: Field required");
        }
        ++j;
      }
    }
    out.messages.push_back({r, ContentText(*content)});
  }
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

Status ParseTools(const Json& body, ChatRequest& out) {
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

class AnthropicDialect final : public Dialect {
 public:
  Provider provider() const override { return Provider::kAnthropic; }

  bool Serves(const http::HttpRequest& r) const override { return r.path == "/v1/messages"; }

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
    STRUCTURE_RETURN_IF_ERROR(ParseMessages(*body, out));
    STRUCTURE_RETURN_IF_ERROR(ParseFormat(*body, out));
    STRUCTURE_RETURN_IF_ERROR(ParseTools(*body, out));
    STRUCTURE_RETURN_IF_ERROR(RejectStreaming(*body, "messages"));
    return out;
  }

  http::HttpResponse Render(const ChatRequest& req, const Answer& a, const Usage& usage,
                            uint64_t id_seed) const override {
    Json content = Json::MakeArray();
    std::string stop = a.truncated ? "max_tokens" : "end_turn";
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
    u.set("input_tokens", usage.input_tokens);
    u.set("cache_creation_input_tokens", 0);
    u.set("cache_read_input_tokens", 0);
    u.set("output_tokens", usage.output_tokens);
    u.set("service_tier", "standard");
    Json body = Json::MakeObject();
    body.set("id", MakeId("msg_", id_seed));
    body.set("type", "message");
    body.set("role", "assistant");
    body.set("model", req.model);
    body.set("content", std::move(content));
    body.set("stop_reason", stop);
    body.set("stop_sequence", nullptr);
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
