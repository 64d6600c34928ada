// Gemini batch mode (inline requests) as the simulator serves it (see sim_batches.h).
#include "sim/raw_json.h"
#include "sim/sim_batches.h"
#include "sim/wire_util.h"

namespace structure::sim {
namespace {

constexpr int64_t kMaxRequests = 100'000;
constexpr int64_t kMaxBytes = 20LL * 1024 * 1024;

const Json* EitherMember(const Json& o, const char* camel, const char* snake) {
  const Json* v = o.find(camel);
  return v ? v : o.find(snake);
}

std::optional<std::string_view> EitherRaw(std::string_view text, const char* camel,
                                          const char* snake) {
  auto v = RawMember(text, camel);
  return v ? v : RawMember(text, snake);
}

Json RpcError(int64_t code, std::string_view message) {
  Json e = Json::MakeObject();
  e.set("code", code);
  e.set("message", message);
  return e;
}

std::string StateName(const SimBatch& b) {
  if (!b.ended) return "BATCH_STATE_RUNNING";
  if (b.end_state == "completed") return "BATCH_STATE_SUCCEEDED";
  if (b.end_state == "failed") return "BATCH_STATE_FAILED";
  if (b.end_state == "expired") return "BATCH_STATE_EXPIRED";
  return "BATCH_STATE_CANCELLED";
}

// The operation; with `results` (a finished batch that ran), its inlined responses.
std::string Operation(const SimBatch& b, bool results) {
  int64_t ok = 0, failed = 0;
  for (const SimItem& item : b.items) {
    if (!b.ended) break;
    (item.fate == ItemFate::kAnswered && item.status / 100 == 2 ? ok : failed) += 1;
  }
  int64_t n = static_cast<int64_t>(b.items.size());
  Json stats = Json::MakeObject();
  stats.set("requestCount", std::to_string(n));
  stats.set("successfulRequestCount", std::to_string(ok));
  stats.set("failedRequestCount", std::to_string(failed));
  stats.set("pendingRequestCount", std::to_string(n - ok - failed));
  Json meta = Json::MakeObject();
  meta.set("@type", "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch");
  meta.set("model", "models/" + b.model);
  meta.set("displayName", b.display_name);
  double age = static_cast<double>(UnixNow() - b.created_s);
  meta.set("createTime", Rfc3339(-age));
  meta.set("updateTime", Rfc3339(0));
  if (b.ended) meta.set("endTime", Rfc3339(0));
  meta.set("batchStats", std::move(stats));
  meta.set("state", StateName(b));
  Json op = Json::MakeObject();
  op.set("name", b.id);
  op.set("metadata", std::move(meta));
  op.set("done", b.ended);
  if (b.ended && b.end_state == "failed") {
    op.set("error", RpcError(3, "The batch failed (simulated)."));
    return ToJson(op);
  }
  if (!results) return ToJson(op);
  // Each answer's body is spliced in as the live call got it.
  Json list = Json::MakeArray();
  std::vector<std::string> raws;
  for (const SimItem& item : b.items) {
    Json entry = Json::MakeObject();
    std::string raw;
    if (item.fate == ItemFate::kErrored) {
      entry.set("error", RpcError(13, "Internal error encountered."));
    } else if (item.fate == ItemFate::kExpired) {
      entry.set("error", RpcError(4, "Deadline expired before the request could run."));
    } else if (item.fate == ItemFate::kCancelled) {
      entry.set("error", RpcError(1, "The request was cancelled."));
    } else if (item.status / 100 == 2) {
      entry.set("response", nullptr);
      raw = item.answer;
    } else {
      auto body = ParseJson(item.answer);
      const Json* err = body.ok() ? body->find("error") : nullptr;
      entry.set("error", err ? *err : RpcError(13, "Internal error encountered."));
    }
    entry.set("metadata", Json(Json::Object{{"key", Json(item.custom_id)}}));
    list.push_back(std::move(entry));
    raws.push_back(std::move(raw));
  }
  Json response = Json::MakeObject();
  response.set(
      "@type",
      "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput");
  response.set("inlinedResponses", Json(Json::Object{{"inlinedResponses", std::move(list)}}));
  op.set("response", std::move(response));
  std::vector<JsonSplice> splices;
  const Json::Array& placed =
      op.find("response")->find("inlinedResponses")->find("inlinedResponses")->as_array();
  for (size_t i = 0; i < placed.size(); ++i) {
    if (!raws[i].empty()) splices.push_back({placed[i].find("response"), raws[i]});
  }
  return ToJsonSpliced(op, splices);
}

http::HttpResponse Create(BatchStore& store, const Dialect& d, const http::HttpRequest& r) {
  int64_t max_requests =
      store.options().max_requests > 0 ? store.options().max_requests : kMaxRequests;
  int64_t max_bytes = store.options().max_bytes > 0 ? store.options().max_bytes : kMaxBytes;
  if (static_cast<int64_t>(r.body.size()) > max_bytes) {
    return d.Error(
        400, "Request payload size exceeds the limit: " + std::to_string(max_bytes) + " bytes.");
  }
  std::string_view rest = std::string_view(r.path).substr(15);  // after "/v1beta/models/"
  std::string model(rest.substr(0, rest.rfind(':')));
  auto body = ParseBodyObject(r.body);
  if (!body.ok()) return d.Error(400, "Invalid JSON payload received. " + body.status().message());
  const Json* batch = body->find("batch");
  const Json* input = batch ? EitherMember(*batch, "inputConfig", "input_config") : nullptr;
  const Json* holder = input ? input->find("requests") : nullptr;
  const Json* requests = holder ? holder->find("requests") : nullptr;
  if (!requests || !requests->is_array() || requests->size() == 0) {
    return d.Error(400, "batch.input_config.requests.requests: at least one request is required.");
  }
  if (static_cast<int64_t>(requests->size()) > max_requests) {
    return d.Error(400, "batch: at most " + std::to_string(max_requests) + " inline requests.");
  }
  // The raw text of each request, so its answer is seeded by the bytes the client sent.
  std::vector<std::string_view> raw;
  if (auto b = RawMember(r.body, "batch")) {
    if (auto ic = EitherRaw(*b, "inputConfig", "input_config")) {
      if (auto h = RawMember(*ic, "requests")) {
        if (auto list = RawMember(*h, "requests")) raw = RawElements(*list);
      }
    }
  }
  std::vector<SimItem> items;
  for (size_t i = 0; i < requests->size(); ++i) {
    const Json& entry = requests->as_array()[i];
    const Json* request = entry.find("request");
    if (!request || !request->is_object()) {
      return d.Error(400, "batch.input_config.requests.requests[" + std::to_string(i) +
                              "].request is required.");
    }
    std::string key = std::to_string(i + 1);
    if (const Json* meta = entry.find("metadata");
        meta && meta->find("key") && meta->find("key")->is_string()) {
      key = meta->find("key")->as_string();
    }
    auto text = i < raw.size() ? RawMember(raw[i], "request") : std::nullopt;
    items.push_back({key, text ? std::string(*text) : ToJson(*request)});
  }
  SimBatch& b = store.Create(Provider::kGemini, "batches/", std::move(items));
  b.model = model;
  if (const Json* name = EitherMember(*batch, "displayName", "display_name");
      name && name->is_string()) {
    b.display_name = name->as_string();
  }
  if (store.LoseCreateAnswer(b)) return d.Error(500, "Internal error encountered.");
  return http::JsonResponse(200, Operation(b, false));
}

}  // namespace

std::optional<http::HttpResponse> ServeGeminiBatches(BatchStore& store, const Dialect& d,
                                                     const KeyPolicy& keys,
                                                     const http::HttpRequest& r) {
  if (auto denied = d.CheckAuth(r, keys)) return std::move(*denied);
  const std::string& p = r.path;
  if (p.rfind("/v1beta/models/", 0) == 0) {
    if (r.method != "POST") return d.Error(404, "Requested entity was not found.");
    return Create(store, d, r);
  }
  if (p == "/v1beta/batches") {
    Json ops = Json::MakeArray();
    for (SimBatch* b : store.List(Provider::kGemini)) {
      auto op = ParseJson(Operation(*b, false));
      if (op.ok()) ops.push_back(std::move(*op));
    }
    return http::JsonResponse(200, ToJson(Json(Json::Object{{"operations", std::move(ops)}})));
  }
  std::string name = p.substr(8);  // "batches/…" after "/v1beta/"
  bool cancel = name.size() > 7 && name.compare(name.size() - 7, 7, ":cancel") == 0;
  if (cancel) name.resize(name.size() - 7);
  SimBatch* b = cancel && r.method == "POST" ? store.Cancel(Provider::kGemini, name)
                                             : store.Find(Provider::kGemini, name);
  if (!b) return d.Error(404, "Batch " + name + " was not found.");
  if (cancel) return http::JsonResponse(200, "{}");
  bool results = b->ended && b->end_state != "failed";
  http::HttpResponse resp = http::JsonResponse(200, Operation(*b, results));
  if (results) store.Download(resp);
  return resp;
}

}  // namespace structure::sim
