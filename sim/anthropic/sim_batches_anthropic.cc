// Anthropic Message Batches endpoints as the simulator serves them (see sim_batches.h).
#include <cctype>
#include <set>

#include "sim/raw_json.h"
#include "sim/sim_batches.h"
#include "sim/wire_util.h"

namespace structure::sim {
namespace {

constexpr int64_t kMaxRequests = 100'000;
constexpr int64_t kMaxBytes = 256LL * 1024 * 1024;

bool ValidCustomId(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  }
  return true;
}

std::string ResultsUrl(const SimBatch& b, const http::HttpRequest& r) {
  const std::string* host = r.FindHeader("Host");
  return "http://" + (host ? *host : std::string("127.0.0.1")) + "/v1/messages/batches/" + b.id +
         "/results";
}

Json BatchObject(const SimBatch& b, const http::HttpRequest& r) {
  int64_t processing = 0, succeeded = 0, errored = 0, canceled = 0, expired = 0;
  for (const SimItem& item : b.items) {
    if (!b.ended) {
      ++processing;
    } else if (b.end_state == "failed" || item.fate == ItemFate::kErrored) {
      ++errored;
    } else if (item.fate == ItemFate::kExpired) {
      ++expired;
    } else if (item.fate == ItemFate::kCancelled) {
      ++canceled;
    } else {
      (item.status / 100 == 2 ? succeeded : errored) += 1;
    }
  }
  Json counts = Json::MakeObject();
  counts.set("processing", processing);
  counts.set("succeeded", succeeded);
  counts.set("errored", errored);
  counts.set("canceled", canceled);
  counts.set("expired", expired);
  Json o = Json::MakeObject();
  o.set("id", b.id);
  o.set("type", "message_batch");
  o.set("processing_status", b.ended ? "ended" : "in_progress");
  o.set("request_counts", std::move(counts));
  o.set("ended_at", b.ended ? Json(Rfc3339(0)) : Json());
  double age = static_cast<double>(UnixNow() - b.created_s);
  o.set("created_at", Rfc3339(-age));
  o.set("expires_at", Rfc3339(24 * 3600 - age));
  o.set("archived_at", nullptr);
  o.set("cancel_initiated_at", b.end_state == "cancelled" ? Json(Rfc3339(0)) : Json());
  o.set("results_url", b.ended ? Json(ResultsUrl(b, r)) : Json());
  return o;
}

std::string ErrorBody(const Dialect& d, int status, std::string_view type,
                      std::string_view message) {
  return d.Error(status, message, type).body;
}

std::string ResultsJsonl(const SimBatch& b, const Dialect& d) {
  std::string out;
  for (const SimItem& item : b.items) {
    Json result = Json::MakeObject();
    std::string raw;  // a message or an error body, spliced in as the live call got it
    if (b.end_state == "failed") {
      result.set("type", "errored");
      raw = ErrorBody(d, 400, "invalid_request_error", "The batch failed (simulated).");
    } else if (item.fate == ItemFate::kErrored) {
      result.set("type", "errored");
      raw = ErrorBody(d, 500, "api_error", "Internal server error");
    } else if (item.fate == ItemFate::kExpired) {
      result.set("type", "expired");
    } else if (item.fate == ItemFate::kCancelled) {
      result.set("type", "canceled");
    } else if (item.status / 100 == 2) {
      result.set("type", "succeeded");
      raw = item.answer;
    } else {
      result.set("type", "errored");
      raw = item.answer;
    }
    std::string_view member = result.find("type")->as_string() == "succeeded" ? "message" : "error";
    if (!raw.empty()) result.set(member, nullptr);
    Json line = Json::MakeObject();
    line.set("custom_id", item.custom_id);
    line.set("result", std::move(result));
    if (raw.empty()) {
      out += ToJson(line);
    } else {
      JsonSplice splice{line.find("result")->find(member), raw};
      out += ToJsonSpliced(line, {&splice, 1});
    }
    out += '\n';
  }
  return out;
}

http::HttpResponse Create(BatchStore& store, const Dialect& d, const http::HttpRequest& r) {
  int64_t max_requests =
      store.options().max_requests > 0 ? store.options().max_requests : kMaxRequests;
  int64_t max_bytes = store.options().max_bytes > 0 ? store.options().max_bytes : kMaxBytes;
  if (static_cast<int64_t>(r.body.size()) > max_bytes) {
    return d.Error(
        413,
        "Request exceeds the maximum allowed number of bytes (" + std::to_string(max_bytes) + ").",
        "request_too_large");
  }
  auto body = ParseBodyObject(r.body);
  if (!body.ok())
    return d.Error(400, "There was an issue with the JSON body: " + body.status().message());
  const Json* requests = body->find("requests");
  if (!requests || !requests->is_array() || requests->size() == 0) {
    return d.Error(400, "requests: Field required and must hold at least one request");
  }
  if (static_cast<int64_t>(requests->size()) > max_requests) {
    return d.Error(400, "requests: at most " + std::to_string(max_requests) +
                            " requests per batch (got " + std::to_string(requests->size()) + ")");
  }
  auto raw = RawElements(*RawMember(r.body, "requests"));
  std::set<std::string> ids;
  std::vector<SimItem> items;
  for (size_t i = 0; i < requests->size(); ++i) {
    const Json& req = requests->as_array()[i];
    std::string at = "requests." + std::to_string(i);
    const Json* id = req.find("custom_id");
    const Json* params = req.find("params");
    if (!id || !id->is_string() || !ValidCustomId(id->as_string())) {
      return d.Error(400, at + ".custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'");
    }
    if (!ids.insert(id->as_string()).second) {
      return d.Error(400, at + ".custom_id: duplicate custom_id '" + id->as_string() + "'");
    }
    if (!params || !params->is_object()) return d.Error(400, at + ".params: Field required");
    auto text = i < raw.size() ? RawMember(raw[i], "params") : std::nullopt;
    items.push_back({id->as_string(), text ? std::string(*text) : ToJson(*params)});
  }
  SimBatch& b = store.Create(Provider::kAnthropic, "msgbatch_", std::move(items));
  if (store.LoseCreateAnswer(b)) return d.Error(500, "Internal server error", "api_error");
  return http::JsonResponse(200, ToJson(BatchObject(b, r)));
}

}  // namespace

std::optional<http::HttpResponse> ServeAnthropicBatches(BatchStore& store, const Dialect& d,
                                                        const KeyPolicy& keys,
                                                        const http::HttpRequest& r) {
  if (auto denied = d.CheckAuth(r, keys)) return std::move(*denied);
  const std::string& p = r.path;
  if (p == "/v1/messages/batches") {
    if (r.method == "POST") return Create(store, d, r);
    Json data = Json::MakeArray();
    for (SimBatch* b : store.List(Provider::kAnthropic)) data.push_back(BatchObject(*b, r));
    Json o = Json::MakeObject();
    o.set("data", std::move(data));
    o.set("has_more", false);
    return http::JsonResponse(200, ToJson(o));
  }
  std::string rest = p.substr(21);  // after "/v1/messages/batches/"
  std::string id = rest.substr(0, rest.find('/'));
  std::string action = rest.size() > id.size() ? rest.substr(id.size() + 1) : "";
  SimBatch* b = action == "cancel" && r.method == "POST" ? store.Cancel(Provider::kAnthropic, id)
                                                         : store.Find(Provider::kAnthropic, id);
  if (!b) return d.Error(404, "Message Batch '" + id + "' not found", "not_found_error");
  if (action == "results") {
    if (!b->ended) return d.Error(400, "Message Batch " + id + " has not ended yet");
    http::HttpResponse resp;
    resp.status = 200;
    resp.body = ResultsJsonl(*b, d);
    resp.SetHeader("Content-Type", "application/binary");
    store.Download(resp);
    return resp;
  }
  if (!action.empty() && action != "cancel") return d.Error(404, "Not found", "not_found_error");
  return http::JsonResponse(200, ToJson(BatchObject(*b, r)));
}

}  // namespace structure::sim
