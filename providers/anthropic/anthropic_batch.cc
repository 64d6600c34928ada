#include "providers/anthropic/anthropic_batch.h"

#include "providers/http_status.h"
#include "providers/wire_util.h"

namespace structure::providers::anthropic_batch {

namespace {

constexpr std::string_view kProvider = "anthropic";

HttpHeaders Auth(const Endpoint& endpoint) {
  HttpHeaders extra;
  if (!endpoint.api_key.empty()) extra.emplace_back("x-api-key", endpoint.api_key);
  extra.emplace_back("anthropic-version", endpoint.anthropic_version);
  return extra;
}

HttpRequest Get(const Endpoint& endpoint, std::string url) {
  HttpRequest r;
  r.method = "GET";
  r.url = std::move(url);
  r.headers = JsonHeaders(Auth(endpoint));
  r.timeout_ms = endpoint.timeout_ms;
  return r;
}

// The HTTP status the live /v1/messages call answers with for an error type, so that a
// request that errored inside the batch gets the Status the live path would have.
int StatusForErrorType(std::string_view type) {
  if (type == "invalid_request_error") return 400;
  if (type == "authentication_error") return 401;
  if (type == "billing_error") return 402;
  if (type == "permission_error") return 403;
  if (type == "not_found_error") return 404;
  if (type == "request_too_large") return 413;
  if (type == "rate_limit_error") return 429;
  if (type == "overloaded_error") return 529;
  return 500;  // api_error and anything new
}

}  // namespace

size_t ItemBytes(const BatchItem& item) {
  return item.request->body.size() + item.custom_id.size() + 32;
}

HttpRequest CreateBatch(const Endpoint& endpoint, const std::vector<BatchItem>& items) {
  Json requests = Json::MakeArray();
  for (const BatchItem& item : items) {
    Json r = Json::MakeObject();
    r.set("custom_id", item.custom_id);
    r.set("params", nullptr);
    requests.push_back(std::move(r));
  }
  Json body = Json::MakeObject();
  body.set("requests", std::move(requests));
  // Each params body is the live call's text, written in place of its placeholder.
  std::vector<JsonSplice> splices;
  splices.reserve(items.size());
  const Json::Array& list = body.find("requests")->as_array();
  for (size_t i = 0; i < items.size(); ++i) {
    splices.push_back({list[i].find("params"), items[i].request->body});
  }
  return JsonPost(endpoint, "/v1/messages/batches", Auth(endpoint), body, splices);
}

HttpRequest RetrieveBatch(const Endpoint& endpoint, std::string_view batch_id) {
  return Get(endpoint, JoinUrl(endpoint, "/v1/messages/batches/" + std::string(batch_id)));
}

HttpRequest CancelBatch(const Endpoint& endpoint, std::string_view batch_id) {
  return JsonPost(endpoint, "/v1/messages/batches/" + std::string(batch_id) + "/cancel",
                  Auth(endpoint), Json::MakeObject());
}

HttpRequest ListBatches(const Endpoint& endpoint, int limit) {
  return Get(endpoint, JoinUrl(endpoint, "/v1/messages/batches?limit=" + std::to_string(limit)));
}

HttpRequest Results(const Endpoint& endpoint, const BatchInfo& info) {
  std::string url = info.results_url;
  const std::string& base = endpoint.base_url;
  bool same_host =
      url.size() > base.size() && url.compare(0, base.size(), base) == 0 && url[base.size()] == '/';
  if (!same_host) url = JoinUrl(endpoint, "/v1/messages/batches/" + info.id + "/results");
  HttpRequest r = Get(endpoint, url);
  r.headers = Auth(endpoint);
  return r;
}

Result<BatchInfo> ParseBatch(const HttpResponse& response) {
  auto body = ParseReplyBody(response, kProvider);
  if (!body.ok()) return body.status();
  const Json& b = *body;
  BatchInfo info;
  info.id = StringAt(b, "id");
  if (info.id.empty()) return Unavailable("anthropic message batches: the reply has no batch id");
  info.status = StringAt(b, "processing_status");
  if (info.status == "ended") info.state = BatchState::kEnded;
  if (const Json* c = b.find("request_counts"); c && c->is_object()) {
    info.succeeded = IntAt(*c, "succeeded");
    info.failed = IntAt(*c, "errored") + IntAt(*c, "canceled") + IntAt(*c, "expired");
    info.total = info.succeeded + info.failed + IntAt(*c, "processing");
  }
  info.results_url = StringAt(b, "results_url");
  return info;
}

std::vector<std::string> MatchInList(const HttpResponse& response, int64_t since_unix_ms,
                                     int64_t requests) {
  std::vector<std::string> ids;
  auto body = ParseReplyBody(response, kProvider);
  if (!body.ok()) return ids;
  const Json* data = body->find("data");
  if (!data || !data->is_array()) return ids;
  for (const Json& b : data->as_array()) {
    auto created = ParseHttpDate(StringAt(b, "created_at"));
    // The provider's clock and ours may differ by a little; a second either way is allowed.
    if (!created || *created * 1000 < since_unix_ms - 1000) continue;
    int64_t n = 0;
    if (const Json* c = b.find("request_counts"); c && c->is_object()) {
      for (const char* k : {"processing", "succeeded", "errored", "canceled", "expired"})
        n += IntAt(*c, k);
    }
    if (n == requests) ids.push_back(StringAt(b, "id"));
  }
  return ids;
}

Status ParseResults(std::string_view jsonl, ItemResults& out) {
  return ForEachLine(jsonl, [&](uint64_t line_no, std::string_view text) -> Status {
    ParseOptions po;
    po.source = "anthropic batch results";
    auto line = ParseJson(text, po);
    std::string at = "anthropic batch results line " + std::to_string(line_no) + ": ";
    if (!line.ok()) return InvalidArgument(at + line.status().message());
    std::string id = line->is_object() ? StringAt(*line, "custom_id") : "";
    const Json* result = line->is_object() ? line->find("result") : nullptr;
    if (id.empty() || !result || !result->is_object())
      return InvalidArgument(at + "no custom_id and result");
    std::string type = StringAt(*result, "type");
    ItemResult item;
    if (type == "succeeded") {
      const Json* message = result->find("message");
      item =
          ItemFromHttp(ProviderKind::kAnthropic, 200, message ? ToJson(*message) : std::string());
    } else if (type == "errored") {
      const Json* error = result->find("error");
      const Json* inner = error ? error->find("error") : nullptr;
      int status = StatusForErrorType(inner ? StringAt(*inner, "type") : "");
      item = ItemFromHttp(ProviderKind::kAnthropic, status, error ? ToJson(*error) : std::string());
    } else if (type == "canceled") {
      item.code = ErrorCode::kBatchCancelled;
      item.reply = Status(Code::kCancelled, "anthropic message batch: the request was canceled");
    } else if (type == "expired") {
      item.code = ErrorCode::kBatchExpired;
      item.transient = true;
      item.reply =
          Status(Code::kUnavailable, "anthropic message batch: the request expired before it ran");
    } else {
      return InvalidArgument(at + "unknown result type '" + type + "'");
    }
    out[id] = std::move(item);
    return Status::Ok();
  });
}

}  // namespace structure::providers::anthropic_batch
