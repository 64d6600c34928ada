// Ollama chat (POST /api/chat) as the simulator serves it, streaming (NDJSON) or not.

#include "sim/dialect.h"
#include "sim/model_checks.h"
#include "sim/thinking.h"
#include "sim/wire_util.h"

namespace structure::sim {
namespace {

Status ParseMessages(const Json& body, ChatRequest& out) {
  const Json* messages = body.find("messages");
  if (!messages || messages->is_null()) return Status::Ok();  // Ollama loads the model
  if (!messages->is_array()) {
    return InvalidArgument("json: cannot unmarshal " +
                           std::string(messages->is_object() ? "object" : "value") +
                           " into Go struct field ChatRequest.messages of type []api.Message");
  }
  for (const auto& m : messages->as_array()) {
    const Json* role = m.find("role");
    const Json* content = m.find("content");
    std::string r = role && role->is_string() ? role->as_string() : "";
    if (r != "system" && r != "user" && r != "assistant" && r != "tool") {
      return InvalidArgument("invalid role: " + r);
    }
    std::string text = content && content->is_string() ? content->as_string() : "";
    if (const Json* calls = m.find("tool_calls"); calls && calls->is_array()) {
      text += (text.empty() ? "" : "\n") + ToJson(*calls);
    }
    out.messages.push_back({r, text});
  }
  return Status::Ok();
}

Status ParseFormat(const Json& body, ChatRequest& out) {
  const Json* format = body.find("format");
  if (!format || format->is_null()) return Status::Ok();
  if (format->is_string()) {
    if (format->as_string() == "json") {
      out.mode = OutputMode::kJsonObject;
      return Status::Ok();
    }
    if (format->as_string().empty()) return Status::Ok();
    return InvalidArgument("invalid format: expected \"json\" or a JSON schema");
  }
  if (!format->is_object())
    return InvalidArgument("invalid format: expected \"json\" or a JSON schema");
  out.mode = OutputMode::kJsonSchema;
  out.schema = *format;
  out.checks.push_back({"ollama", "format", *format});
  return Status::Ok();
}

Status ParseTools(const Json& body, ChatRequest& out) {
  const Json* tools = body.find("tools");
  if (!tools || !tools->is_array()) return Status::Ok();
  for (const auto& tool : tools->as_array()) {
    const Json* fn = tool.find("function");
    const Json* name = fn ? fn->find("name") : nullptr;
    if (!name || !name->is_string())
      return InvalidArgument("invalid tool: function name is required");
    const Json* params = fn->find("parameters");
    out.tools.push_back({name->as_string(), params ? *params : Json::MakeObject()});
  }
  PreferToolCall(!out.tools.empty(), out);
  return Status::Ok();
}

class OllamaDialect final : public Dialect {
 public:
  Provider provider() const override { return Provider::kOllama; }

  // The path of the kind table (providers/kinds.h).
  bool Serves(const http::HttpRequest& r) const override {
    return OnPathOf(r.path, providers::ProviderKind::kOllama);
  }

  // Local Ollama needs no key; a key the scenario declares invalid is refused (Ollama Cloud).
  std::optional<http::HttpResponse> CheckAuth(const http::HttpRequest& r,
                                              const KeyPolicy& keys) const override {
    std::string key = BearerToken(r);
    if (!key.empty() && keys.invalid_keys.count(key)) return Error(401, "unauthorized");
    return std::nullopt;
  }

  Result<ChatRequest> Parse(const http::HttpRequest& r) const override {
    if (r.method != "POST") return Status(Code::kNotFound, "404 page not found");
    auto body = ParseBodyObject(r.body);
    if (!body.ok())
      return InvalidArgument("invalid character in request body: " + body.status().message());
    ChatRequest out;
    out.provider = Provider::kOllama;
    const Json* model = body->find("model");
    if (!model || !model->is_string() || model->as_string().empty()) {
      return InvalidArgument("model is required");
    }
    out.model = model->as_string();
    STRUCTURE_RETURN_IF_ERROR(ParseMessages(*body, out));
    STRUCTURE_RETURN_IF_ERROR(ParseFormat(*body, out));
    STRUCTURE_RETURN_IF_ERROR(ParseTools(*body, out));
    const Json* options = body->find("options");
    if (const Json* np = options ? options->find("num_predict") : nullptr;
        np && np->is_integral() && np->as_int() > 0) {
      out.max_tokens = np->as_int();
    }
    out.rejected = CheckOllamaParameters(*body, out.model);
    if (const Json* think = body->find("think"); think && !think->is_null()) {
      if (think->is_bool())
        out.thinking_tokens = think->as_bool() ? EffortTokens("medium") : 0;
      else if (think->is_string())
        out.thinking_tokens = EffortTokens(think->as_string());
      else
        return InvalidArgument(
            "invalid think value: must be a boolean or \"high\", \"medium\", \"low\"");
    }
    const Json* stream = body->find("stream");
    out.stream = !(stream && stream->is_bool() && !stream->as_bool());
    return out;
  }

  http::HttpResponse Render(const ChatRequest& req, const Answer& a, const Usage& usage,
                            uint64_t /*id_seed*/) const override {
    Json message = Json::MakeObject();
    message.set("role", "assistant");
    if (a.thinking_tokens > 0) message.set("thinking", kThinkingText);
    auto args =
        a.kind == Answer::Kind::kToolCall ? ParseJson(a.tool_arguments) : Result<Json>(Json());
    if (a.kind == Answer::Kind::kToolCall && args.ok() && args->is_object()) {
      message.set("content", "");
      Json fn = Json::MakeObject();
      fn.set("name", a.tool_name);
      fn.set("arguments", std::move(*args));
      Json call = Json::MakeObject();
      call.set("function", std::move(fn));
      Json calls = ArrayOf(std::move(call));
      for (const auto& [name, more_args] : a.more_tool_calls) {
        auto parsed = ParseJson(more_args);
        Json more_fn = Json::MakeObject();
        more_fn.set("name", name);
        more_fn.set("arguments", parsed.ok() ? std::move(*parsed) : Json::MakeObject());
        Json more = Json::MakeObject();
        more.set("function", std::move(more_fn));
        calls.push_back(std::move(more));
      }
      message.set("tool_calls", std::move(calls));
    } else if (a.shape == ReplyShape::kThinkingOnly) {
      // A thinking model asked without `think` that put its whole answer in the thinking.
      message.set("content", "");
      message.set("thinking", a.kind == Answer::Kind::kToolCall ? a.tool_arguments : a.text);
    } else {
      // Ollama has no refusal signal: a declining model simply says so in the content.
      message.set("content", a.kind == Answer::Kind::kToolCall ? a.tool_arguments : a.text);
    }
    Json final_body = Json::MakeObject();
    final_body.set("model", req.model);
    final_body.set("created_at", Rfc3339(0, true));
    if (!req.stream)
      final_body.set("message", message);
    else {
      Json empty = Json::MakeObject();
      empty.set("role", "assistant");
      empty.set("content", "");
      final_body.set("message", std::move(empty));
    }
    final_body.set("done_reason", a.truncated ? "length" : "stop");
    final_body.set("done", true);
    final_body.set("total_duration", int64_t{1000000});
    final_body.set("load_duration", int64_t{100000});
    final_body.set("prompt_eval_count", usage.input_tokens);
    final_body.set("prompt_eval_duration", int64_t{200000});
    final_body.set("eval_count", usage.output_tokens);
    final_body.set("eval_duration", int64_t{700000});
    if (!req.stream) return http::JsonResponse(200, ToJson(final_body));
    Json chunk = Json::MakeObject();
    chunk.set("model", req.model);
    chunk.set("created_at", Rfc3339(0, true));
    chunk.set("message", std::move(message));
    chunk.set("done", false);
    http::HttpResponse resp;
    resp.status = 200;
    resp.headers.emplace_back("Content-Type", "application/x-ndjson");
    resp.body = ToJson(chunk) + "\n" + ToJson(final_body) + "\n";
    return resp;
  }

  http::HttpResponse Error(int status, std::string_view message,
                           std::string_view = {}) const override {
    Json body = Json::MakeObject();
    body.set("error", message);
    return http::JsonResponse(status, ToJson(body));
  }

  std::string SchemaRejection(const CheckedSchema&, std::string_view issue) const override {
    return "invalid JSON schema in format: " + std::string(issue);
  }

  std::vector<http::Header> LimitHeaders(const LimitSnapshot&, bool) const override { return {}; }

  http::HttpResponse RateLimited(const LimitSnapshot& l, RetryHint hint) const override {
    auto resp = Error(429, "too many requests, please try again later");
    // Ollama has no rate-limit headers: it says retry-after instead.
    SetRetryHeaders(hint == RetryHint::kRateLimitHeaders ? RetryHint::kRetryAfter : hint,
                    l.retry_after_s, {}, resp);
    return resp;
  }
};

}  // namespace

std::unique_ptr<Dialect> MakeOllamaDialect() { return std::make_unique<OllamaDialect>(); }

}  // namespace structure::sim
