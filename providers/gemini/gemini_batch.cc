#include "providers/gemini/gemini_batch.h"

#include <cstdlib>

#include "providers/wire_util.h"

namespace structure::providers::gemini_batch {

namespace {

constexpr std::string_view kProvider = "gemini";

HttpHeaders Auth(const Endpoint& endpoint) {
  HttpHeaders extra;
  if (!endpoint.api_key.empty()) extra.emplace_back("x-goog-api-key", endpoint.api_key);
  return extra;
}

HttpRequest Get(const Endpoint& endpoint, const std::string& path) {
  HttpRequest r;
  r.method = "GET";
  r.url = JoinUrl(endpoint, path);
  r.headers = JsonHeaders(Auth(endpoint));
  r.timeout_ms = endpoint.timeout_ms;
  return r;
}

// int64 fields arrive as strings in proto JSON ("requestCount": "12").
int64_t CountAt(const Json& object, std::string_view key) {
  const Json* v = object.find(key);
  if (!v) return 0;
  if (v->is_string()) return std::strtoll(v->as_string().c_str(), nullptr, 10);
  return IntAt(object, key);
}

// The HTTP status the live generateContent call answers with for a google.rpc code.
int HttpStatusForRpcCode(int64_t code) {
  switch (code) {
    case 1:
      return 499;  // CANCELLED
    case 3:
      return 400;  // INVALID_ARGUMENT
    case 5:
      return 404;  // NOT_FOUND
    case 7:
      return 403;  // PERMISSION_DENIED
    case 8:
      return 429;  // RESOURCE_EXHAUSTED
    case 9:
      return 400;  // FAILED_PRECONDITION
    case 16:
      return 401;  // UNAUTHENTICATED
    case 4:
      return 504;  // DEADLINE_EXCEEDED
    case 14:
      return 503;  // UNAVAILABLE
    default:
      return code >= 400 && code < 600 ? static_cast<int>(code) : 500;
  }
}

std::string_view StateWord(const std::string& state) {
  std::string_view s = state;
  for (std::string_view prefix : {"BATCH_STATE_", "JOB_STATE_"}) {
    if (s.substr(0, prefix.size()) == prefix) return s.substr(prefix.size());
  }
  return s;
}

// The inlined responses of an operation's response, wherever the variant puts them.
const Json* InlinedList(const Json& op) {
  const Json* response = op.find("response");
  if (!response) return nullptr;
  for (const Json* holder :
       {response->find("inlinedResponses"), MemberAt(*response, {"output", "inlinedResponses"})}) {
    if (!holder) continue;
    if (holder->is_array()) return holder;
    for (const char* key : {"inlinedResponses", "responses"}) {
      if (const Json* list = holder->find(key); list && list->is_array()) return list;
    }
  }
  return nullptr;
}

}  // namespace

size_t ItemBytes(const BatchItem& item) {
  return item.request->body.size() + item.custom_id.size() + 48;
}

HttpRequest CreateBatch(const Endpoint& endpoint, std::string_view model,
                        std::string_view display_name, const std::vector<BatchItem>& items) {
  Json list = Json::MakeArray();
  for (const BatchItem& item : items) {
    Json r = Json::MakeObject();
    r.set("request", nullptr);
    r.set("metadata", Json(Json::Object{{"key", Json(item.custom_id)}}));
    list.push_back(std::move(r));
  }
  Json batch = Json::MakeObject();
  batch.set("displayName", display_name);
  batch.set("inputConfig",
            Json(Json::Object{{"requests", Json(Json::Object{{"requests", std::move(list)}})}}));
  Json body = Json::MakeObject();
  body.set("batch", std::move(batch));
  const Json::Array& placed =
      MemberAt(body, {"batch", "inputConfig", "requests", "requests"})->as_array();
  std::vector<JsonSplice> splices;
  splices.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i)
    splices.push_back({placed[i].find("request"), items[i].request->body});
  std::string m(model.substr(0, 7) == "models/" ? model.substr(7) : model);
  return JsonPost(endpoint, "/v1beta/models/" + m + ":batchGenerateContent", Auth(endpoint), body,
                  splices);
}

HttpRequest GetBatch(const Endpoint& endpoint, std::string_view name) {
  return Get(endpoint, "/v1beta/" + std::string(name));
}

HttpRequest CancelBatch(const Endpoint& endpoint, std::string_view name) {
  return JsonPost(endpoint, "/v1beta/" + std::string(name) + ":cancel", Auth(endpoint),
                  Json::MakeObject());
}

HttpRequest ListBatches(const Endpoint& endpoint, int page_size) {
  return Get(endpoint, "/v1beta/batches?pageSize=" + std::to_string(page_size));
}

Result<BatchInfo> ParseBatch(const HttpResponse& response) {
  auto body = ParseReplyBody(response, kProvider);
  if (!body.ok()) return body.status();
  const Json& op = *body;
  BatchInfo info;
  info.id = StringAt(op, "name");
  if (info.id.empty()) return Unavailable("gemini batches: the reply has no operation name");
  const Json* meta = op.find("metadata");
  info.status = meta ? StringAt(*meta, "state") : "";
  std::string_view word = StateWord(info.status);
  if (word == "SUCCEEDED") {
    info.state = BatchState::kEnded;
  } else if (word == "FAILED") {
    info.state = BatchState::kFailed;
  } else if (word == "CANCELLED") {
    info.state = BatchState::kCancelled;
  } else if (word == "EXPIRED") {
    info.state = BatchState::kExpired;
  }
  if (const Json* error = op.find("error"); error && error->is_object()) {
    info.error = StringAt(*error, "message");
    if (info.state == BatchState::kRunning) info.state = BatchState::kFailed;
  }
  if (const Json* stats = meta ? meta->find("batchStats") : nullptr; stats && stats->is_object()) {
    info.total = CountAt(*stats, "requestCount");
    info.succeeded = CountAt(*stats, "successfulRequestCount");
    info.failed = CountAt(*stats, "failedRequestCount");
  }
  return info;
}

std::optional<std::string> FindInList(const HttpResponse& response, std::string_view display_name) {
  auto body = ParseReplyBody(response, kProvider);
  if (!body.ok()) return std::nullopt;
  const Json* ops = body->find("operations");
  if (!ops || !ops->is_array()) return std::nullopt;
  for (const Json& op : ops->as_array()) {
    const Json* meta = op.find("metadata");
    if (meta && StringAt(*meta, "displayName") == display_name) return StringAt(op, "name");
  }
  return std::nullopt;
}

Status ParseResults(std::string_view operation_body, const std::vector<std::string>& custom_ids,
                    ItemResults& out) {
  ParseOptions po;
  po.source = "gemini batch operation";
  auto op = ParseJson(operation_body, po);
  if (!op.ok()) return op.status();
  if (!op->is_object()) return InvalidArgument("gemini batch operation: not a JSON object");
  const Json* list = InlinedList(*op);
  if (!list) return Status::Ok();  // no responses (failed, cancelled or expired before any)
  size_t i = 0;
  for (const Json& entry : list->as_array()) {
    size_t index = i++;
    std::string id;
    if (const Json* meta = entry.find("metadata"); meta && meta->is_object())
      id = StringAt(*meta, "key");
    if (id.empty() && index < custom_ids.size()) id = custom_ids[index];
    if (id.empty()) continue;
    if (const Json* response = entry.find("response"); response && response->is_object()) {
      out[id] = ItemFromHttp(ProviderKind::kGemini, 200, ToJson(*response));
    } else if (const Json* error = entry.find("error"); error && error->is_object()) {
      Json wrapped = Json::MakeObject();
      wrapped.set("error", *error);
      int64_t code = IntAt(*error, "code");
      ItemResult item =
          ItemFromHttp(ProviderKind::kGemini, HttpStatusForRpcCode(code), ToJson(wrapped));
      if (code == 1)
        item.code = ErrorCode::kBatchCancelled;  // the batch was cancelled before it ran
      out[id] = std::move(item);
    }
  }
  return Status::Ok();
}

}  // namespace structure::providers::gemini_batch
