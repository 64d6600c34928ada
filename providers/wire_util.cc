#include "providers/wire_util.h"

#include "providers/http_status.h"

namespace structure::providers {

std::string JoinUrl(const Endpoint& endpoint, std::string_view path) {
  std::string url = endpoint.base_url;
  url += path;
  return url;
}

HttpHeaders JsonHeaders(HttpHeaders extra) {
  HttpHeaders h;
  h.reserve(extra.size() + 2);
  h.emplace_back("Content-Type", "application/json");
  h.emplace_back("Accept", "application/json");
  for (auto& kv : extra) h.push_back(std::move(kv));
  return h;
}

HttpRequest JsonPost(const Endpoint& endpoint, std::string_view path, HttpHeaders extra,
                     const Json& body, std::span<const JsonSplice> splices) {
  return JsonPostText(endpoint, path, std::move(extra), ToJsonSpliced(body, splices));
}

HttpRequest JsonPostText(const Endpoint& endpoint, std::string_view path, HttpHeaders extra,
                         std::string body) {
  HttpRequest req;
  req.url = JoinUrl(endpoint, path);
  req.headers = JsonHeaders(std::move(extra));
  req.body = std::move(body);
  req.timeout_ms = endpoint.timeout_ms;
  return req;
}

const Json* MemberAt(const Json& root, std::initializer_list<std::string_view> keys) {
  const Json* at = &root;
  for (std::string_view k : keys) {
    at = at->find(k);
    if (!at) return nullptr;
  }
  return at;
}

void BodySplices::AddToolSchemas(const Json* tools, std::initializer_list<std::string_view> path,
                                 const ProviderCall& call) {
  if (!tools || !tools->is_array() || tools->size() == 0) return;
  if (call.final_tool) Add(MemberAt(tools->as_array().front(), path), call.schema);
  if (call.need == NeedChannel::kTool)
    Add(MemberAt(tools->as_array().back(), path), call.need_schema);
}

HttpHeaders BearerAuth(const Endpoint& endpoint) {
  HttpHeaders h;
  if (!endpoint.api_key.empty()) h.emplace_back("Authorization", "Bearer " + endpoint.api_key);
  return h;
}

void AppendToUserTurn(Json& turns, std::string_view list_key, Json item) {
  Json* last = turns.size() > 0 ? &turns.as_array().back() : nullptr;
  if (last && StringAt(*last, "role") == "user") {
    (*last)[std::string(list_key)].push_back(std::move(item));
    return;
  }
  Json list = Json::MakeArray();
  list.push_back(std::move(item));
  Json turn = Json::MakeObject();
  turn.set("role", "user");
  turn.set(std::string(list_key), std::move(list));
  turns.push_back(std::move(turn));
}

namespace {

// A google.rpc.QuotaFailure detail with a violation of a per-day quota
// ("GenerateRequestsPerDayPerProjectPerModel-FreeTier").
bool NamesADailyQuota(const Json& detail) {
  const Json* violations = detail.find("violations");
  if (violations == nullptr || !violations->is_array()) return false;
  for (const Json& v : violations->as_array()) {
    if (StringAt(v, "quotaId").find("PerDay") != std::string::npos) return true;
  }
  return false;
}

}  // namespace

ProviderError ExtractProviderError(std::string_view body) {
  ProviderError out;
  ParseOptions opts;
  opts.max_depth = 64;
  opts.source = "error body";
  auto parsed = ParseJson(body, opts);
  if (!parsed.ok() || !parsed->is_object()) {
    // Not JSON (an HTML error page, a proxy message): keep a bounded excerpt.
    out.message = std::string(body.substr(0, 300));
    return out;
  }
  const Json& root = *parsed;
  const Json* err = root.find("error");
  if (err && err->is_string()) {
    out.message = err->as_string();
  } else if (err && err->is_object()) {
    out.message = StringAt(*err, "message");
    out.type = StringAt(*err, "type");
    if (out.type.empty()) out.type = StringAt(*err, "status");
    if (const Json* code = err->find("code"); code && code->is_string() && out.type.empty()) {
      out.type = code->as_string();
    }
    // Google reports a bad key as 400 INVALID_ARGUMENT; the reason (or the stable message)
    // says what it really is.
    bool daily_quota = false;
    if (const Json* details = err->find("details"); details && details->is_array()) {
      for (const Json& d : details->as_array()) {
        if (std::string reason = StringAt(d, "reason"); !reason.empty()) out.type = reason;
        daily_quota = daily_quota || NamesADailyQuota(d);
      }
    }
    if (out.message.rfind("API key not valid", 0) == 0) out.type = "API_KEY_INVALID";
    // A spent quota or credit, as each provider says it, becomes OpenAI's type (StatusFromHttp:
    // kQuotaExhausted, never retried). OpenAI marks it in `code` while `type` may be generic;
    // Anthropic answers 402 billing_error, or a 400 invalid_request_error whose message says
    // the credit balance is too low (its only mark); Gemini a 429 RESOURCE_EXHAUSTED whose
    // QuotaFailure names a per-day quota, which no retry within a call can outwait.
    const Json* code = err->find("code");
    if ((code && code->is_string() && code->as_string() == "insufficient_quota") ||
        out.type == "billing_error" ||
        (out.type == "invalid_request_error" &&
         out.message.find("credit balance is too low") != std::string::npos) ||
        (out.type == "RESOURCE_EXHAUSTED" && daily_quota)) {
      out.type = "insufficient_quota";
    }
  } else {
    out.message = StringAt(root, "message");
  }
  return out;
}

Result<Json> ParseReplyBody(const HttpResponse& response, std::string_view provider) {
  if (response.error != TransportError::kNone || response.status < 200 || response.status >= 300) {
    ProviderError pe;
    if (response.error == TransportError::kNone) pe = ExtractProviderError(response.body);
    return StatusFromHttp(response, provider, pe.message, pe.type);
  }
  ParseOptions opts;
  opts.source = std::string(provider) + " reply";
  auto parsed = ParseJson(response.body, opts);
  if (!parsed.ok()) {
    return Unavailable("malformed reply body: " + parsed.status().message());
  }
  if (!parsed->is_object()) {
    return Unavailable(std::string(provider) + " reply: body is not a JSON object");
  }
  return std::move(parsed).value();
}

Json ArgumentsObject(const std::string& text) {
  ParseOptions opts;
  opts.source = "tool arguments";
  auto parsed = ParseJson(text, opts);
  if (parsed.ok() && parsed->is_object()) return std::move(parsed).value();
  Json o = Json::MakeObject();
  o.set("_raw", text);
  return o;
}

std::string ArgumentsText(const Json* args) {
  if (!args || args->is_null()) return "{}";
  if (!args->is_string()) return ToJson(*args);
  return ArgumentsFromText(args->as_string());
}

std::string ArgumentsFromText(std::string text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return "{}";
  return text;
}

void NoteReasoningCount(ProviderReply& reply, bool count_reported) {
  reply.usage.reasoning_unreported = !count_reported && !reply.thoughts.empty();
}

std::string StringAt(const Json& object, std::string_view key) {
  const Json* v = object.find(key);
  return v && v->is_string() ? v->as_string() : std::string();
}

int64_t IntAt(const Json& object, std::string_view key) {
  const Json* v = object.find(key);
  if (!v || !v->is_number()) return 0;
  if (v->is_int()) return v->as_int();
  // A double out of int64 range would make the conversion undefined; counts never get there.
  double d = v->as_double();
  return d >= 0 && d < 1e15 ? static_cast<int64_t>(d) : 0;
}

}  // namespace structure::providers
