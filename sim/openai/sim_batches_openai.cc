// OpenAI Files and Batch endpoints as the simulator serves them (see sim_batches.h).
#include <algorithm>
#include <cstdlib>
#include <set>

#include "base/hash.h"
#include "sim/raw_json.h"
#include "sim/rng.h"
#include "sim/sim_batches.h"
#include "sim/wire_util.h"

namespace structure::sim {
namespace {

constexpr std::string_view kEndpoint = "/v1/chat/completions";
constexpr std::string_view kResponsesEndpoint = "/v1/responses";
constexpr int64_t kMaxRequests = 50'000;
constexpr int64_t kMaxBytes = 200LL * 1024 * 1024;

Json OrNull(int64_t seconds, bool set) { return set ? Json(seconds) : Json(); }

// The parts of a multipart/form-data body: name -> (filename, content).
struct Part {
  std::string filename;
  std::string content;
};

Result<std::map<std::string, Part>> ParseMultipart(const http::HttpRequest& r) {
  const std::string* type = nullptr;
  for (const auto& [name, value] : r.headers) {
    if (http::HeaderNameEquals(name, "Content-Type") && value.rfind("multipart/form-data", 0) == 0)
      type = &value;
  }
  size_t b = type ? type->find("boundary=") : std::string::npos;
  if (!type || type->rfind("multipart/form-data", 0) != 0 || b == std::string::npos) {
    return InvalidArgument("expected a multipart/form-data body with a boundary");
  }
  std::string boundary = "--" + type->substr(b + 9);
  if (boundary.size() > 2 && boundary[2] == '"')
    boundary = "--" + boundary.substr(3, boundary.size() - 4);
  std::map<std::string, Part> parts;
  size_t pos = r.body.find(boundary);
  while (pos != std::string::npos) {
    pos += boundary.size();
    if (r.body.compare(pos, 2, "--") == 0) break;  // closing boundary
    size_t head_end = r.body.find("\r\n\r\n", pos);
    if (head_end == std::string::npos) return InvalidArgument("a multipart part has no header end");
    std::string head = r.body.substr(pos, head_end - pos);
    size_t next = r.body.find("\r\n" + boundary, head_end + 4);
    if (next == std::string::npos)
      return InvalidArgument("a multipart part has no closing boundary");
    auto field = [&head](std::string_view key) {
      std::string k = std::string(key) + "=\"";
      size_t at = head.find(k);
      if (at == std::string::npos) return std::string();
      at += k.size();
      return head.substr(at, head.find('"', at) - at);
    };
    Part part{field("filename"), r.body.substr(head_end + 4, next - head_end - 4)};
    parts[field("name")] = std::move(part);
    pos = next + 2;
  }
  return parts;
}

Json FileObject(const SimFile& f) {
  Json o = Json::MakeObject();
  o.set("id", f.id);
  o.set("object", "file");
  o.set("bytes", static_cast<int64_t>(f.content.size()));
  o.set("created_at", f.created_s);
  o.set("filename", f.name);
  o.set("purpose", f.purpose);
  o.set("status", "processed");
  return o;
}

Json BatchObject(const SimBatch& b) {
  int64_t completed = 0;
  int64_t failed = 0;
  for (const SimItem& item : b.items) {
    if (!b.ended) break;
    bool ok = item.fate == ItemFate::kAnswered && item.status / 100 == 2;
    (ok ? completed : failed) += 1;
  }
  std::string status = b.ended ? b.end_state : "in_progress";
  int64_t now = UnixNow();
  Json o = Json::MakeObject();
  o.set("id", b.id);
  o.set("object", "batch");
  o.set("endpoint", b.endpoint.empty() ? std::string(kEndpoint) : b.endpoint);
  o.set("errors", nullptr);
  if (status == "failed") {
    Json err = Json::MakeObject();
    err.set("code", b.metadata.find("_sim_error_code")
                        ? b.metadata.find("_sim_error_code")->as_string()
                        : std::string("simulated_failure"));
    err.set("message", b.metadata.find("_sim_error")
                           ? b.metadata.find("_sim_error")->as_string()
                           : std::string("The batch failed validation (simulated)."));
    err.set("param", nullptr);
    err.set("line", 1);
    o.set("errors",
          Json(Json::Object{{"object", Json("list")}, {"data", ArrayOf(std::move(err))}}));
  }
  o.set("input_file_id", b.input_file_id);
  o.set("completion_window", "24h");
  o.set("status", status);
  o.set("output_file_id", b.output_file_id.empty() ? Json() : Json(b.output_file_id));
  o.set("error_file_id", b.error_file_id.empty() ? Json() : Json(b.error_file_id));
  o.set("created_at", b.created_s);
  o.set("in_progress_at", b.created_s);
  o.set("expires_at", b.created_s + 24 * 3600);
  o.set("finalizing_at", OrNull(now, b.ended));
  o.set("completed_at", OrNull(now, status == "completed"));
  o.set("failed_at", OrNull(now, status == "failed"));
  o.set("expired_at", OrNull(now, status == "expired"));
  o.set("cancelling_at", OrNull(now, status == "cancelled"));
  o.set("cancelled_at", OrNull(now, status == "cancelled"));
  Json counts = Json::MakeObject();
  counts.set("total", static_cast<int64_t>(b.items.size()));
  counts.set("completed", completed);
  counts.set("failed", failed);
  o.set("request_counts", std::move(counts));
  Json meta = Json::MakeObject();
  if (b.metadata.is_object()) {
    for (const auto& [k, v] : b.metadata.as_object()) {
      if (k.rfind("_sim_", 0) != 0) meta.set(k, v);
    }
  }
  o.set("metadata", std::move(meta));
  return o;
}

// One line of an output or error file.
std::string ResultLine(const SimBatch& b, size_t index, const Dialect& d) {
  const SimItem& item = b.items[index];
  Json line = Json::MakeObject();
  line.set("id", MakeId("batch_req_", Fnv1a64(item.custom_id, Fnv1a64(b.id))));
  line.set("custom_id", item.custom_id);
  std::string body;
  int status = 0;
  if (item.fate == ItemFate::kAnswered) {
    status = item.status;
    body = item.answer;
  } else if (item.fate == ItemFate::kErrored) {
    status = 500;
    body = d.Error(500, "The server had an error while processing your request. Sorry about that!")
               .body;
  }
  if (status != 0) {
    Json response = Json::MakeObject();
    response.set("status_code", status);
    response.set("request_id", MakeId("req_", Fnv1a64(item.custom_id)));
    response.set("body", nullptr);
    line.set("response", std::move(response));
    line.set("error", nullptr);
    JsonSplice splice{line.find("response")->find("body"), body};
    return ToJsonSpliced(line, {&splice, 1}) + "\n";
  }
  bool expired = item.fate == ItemFate::kExpired;
  Json error = Json::MakeObject();
  error.set("code", expired ? "batch_expired" : "batch_cancelled");
  error.set("message",
            expired ? "This request could not be executed before the completion window expired."
                    : "This request could not be executed before the batch was cancelled.");
  line.set("response", nullptr);
  line.set("error", std::move(error));
  return ToJson(line) + "\n";
}

// Writes the output and error files of an ended batch, once.
void WriteResultFiles(BatchStore& store, SimBatch& b, const Dialect& d) {
  if (!b.ended || b.end_state == "failed" || !b.output_file_id.empty() || !b.error_file_id.empty())
    return;
  std::string output;
  std::string errors;
  for (size_t i = 0; i < b.items.size(); ++i) {
    const SimItem& item = b.items[i];
    bool ok = item.fate == ItemFate::kAnswered && item.status / 100 == 2;
    (ok ? output : errors) += ResultLine(b, i, d);
  }
  if (!output.empty())
    b.output_file_id =
        store.AddFile("batch_output", b.id + "_output.jsonl", std::move(output), true).id;
  if (!errors.empty())
    b.error_file_id =
        store.AddFile("batch_output", b.id + "_error.jsonl", std::move(errors), true).id;
}

http::HttpResponse Upload(BatchStore& store, const Dialect& d, const http::HttpRequest& r) {
  auto parts = ParseMultipart(r);
  if (!parts.ok()) return d.Error(400, parts.status().message());
  auto purpose = parts->find("purpose");
  auto file = parts->find("file");
  if (purpose == parts->end()) return d.Error(400, "Missing required parameter: 'purpose'.");
  if (file == parts->end()) return d.Error(400, "Missing required parameter: 'file'.");
  if (purpose->second.content != "batch") {
    return d.Error(400, "Invalid value for 'purpose': the simulator accepts only 'batch'.");
  }
  SimFile& f = store.AddFile("batch", file->second.filename, std::move(file->second.content));
  return http::JsonResponse(200, ToJson(FileObject(f)));
}

// Validates the input file the way the batch's validation step does; "" when it is good.
std::string CheckInput(const BatchStore& store, const SimFile& f, std::string_view endpoint,
                       std::vector<SimItem>& items, std::string* code) {
  int64_t max_requests =
      store.options().max_requests > 0 ? store.options().max_requests : kMaxRequests;
  int64_t max_bytes = store.options().max_bytes > 0 ? store.options().max_bytes : kMaxBytes;
  if (static_cast<int64_t>(f.content.size()) > max_bytes) {
    *code = "file_too_large";
    return "The input file is " + std::to_string(f.content.size()) + " bytes; the limit is " +
           std::to_string(max_bytes) + ".";
  }
  std::set<std::string> ids;
  std::string model;
  size_t pos = 0;
  int64_t line_no = 0;
  while (pos < f.content.size()) {
    size_t nl = f.content.find('\n', pos);
    if (nl == std::string::npos) nl = f.content.size();
    std::string_view text(f.content.data() + pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (text.empty()) continue;
    auto line = ParseJson(text);
    *code = "invalid_request";
    std::string at = "Line " + std::to_string(line_no) + ": ";
    if (!line.ok() || !line->is_object()) return at + "not a JSON object.";
    const Json* id = line->find("custom_id");
    const Json* url = line->find("url");
    const Json* body = line->find("body");
    if (!id || !id->is_string()) return at + "missing custom_id.";
    if (!ids.insert(id->as_string()).second)
      return at + "duplicate custom_id '" + id->as_string() + "'.";
    if (!url || !url->is_string() || url->as_string() != endpoint)
      return at + "url must be the batch's endpoint, " + std::string(endpoint) + ".";
    if (!body || !body->is_object()) return at + "body must be an object.";
    const Json* m = body->find("model");
    std::string this_model = m && m->is_string() ? m->as_string() : "";
    if (model.empty()) model = this_model;
    if (this_model != model) {
      *code = "mismatched_model";
      return at + "every request of a batch must use the same model.";
    }
    // The body's own bytes: its answer is seeded by them, as a live request's is.
    auto raw = RawMember(text, "body");
    items.push_back({id->as_string(), raw ? std::string(*raw) : ToJson(*body)});
  }
  if (items.empty()) return "The input file holds no requests.";
  if (static_cast<int64_t>(items.size()) > max_requests) {
    *code = "too_many_requests";
    return "The input file has " + std::to_string(items.size()) + " requests; the limit is " +
           std::to_string(max_requests) + ".";
  }
  code->clear();
  return "";
}

http::HttpResponse Create(BatchStore& store, const Dialect& d, const http::HttpRequest& r) {
  auto body = ParseBodyObject(r.body);
  if (!body.ok()) return d.Error(400, "We could not parse the JSON body of your request.");
  const Json* file_id = body->find("input_file_id");
  const Json* endpoint = body->find("endpoint");
  const Json* window = body->find("completion_window");
  if (!file_id || !file_id->is_string())
    return d.Error(400, "Missing required parameter: 'input_file_id'.");
  if (!endpoint || !endpoint->is_string() ||
      (endpoint->as_string() != kEndpoint && endpoint->as_string() != kResponsesEndpoint)) {
    return d.Error(400,
                   "Invalid value for 'endpoint': the simulator serves /v1/chat/completions and "
                   "/v1/responses.");
  }
  if (!window || !window->is_string() || window->as_string() != "24h") {
    return d.Error(400, "Invalid value for 'completion_window': only '24h' is supported.");
  }
  SimFile* f = store.FindFile(file_id->as_string());
  if (!f || f->purpose != "batch")
    return d.Error(404, "No such File object: " + file_id->as_string());
  std::vector<SimItem> items;
  std::string code;
  std::string problem = CheckInput(store, *f, endpoint->as_string(), items, &code);
  SimBatch& b = store.Create(Provider::kOpenAi, "batch_", std::move(items));
  b.endpoint = endpoint->as_string();
  b.input_file_id = f->id;
  if (const Json* meta = body->find("metadata"); meta && meta->is_object()) b.metadata = *meta;
  if (!problem.empty()) {
    b.ended = true;
    b.end_state = "failed";
    b.metadata.set("_sim_error_code", code);
    b.metadata.set("_sim_error", problem);
  }
  if (store.LoseCreateAnswer(b))
    return d.Error(500, "The server had an error while processing your request.");
  return http::JsonResponse(200, ToJson(BatchObject(b)));
}

http::HttpResponse List(BatchStore& store, const Dialect& d, const http::HttpRequest& r) {
  int64_t limit = 20;
  if (auto l = r.QueryParam("limit")) limit = std::max<int64_t>(1, std::atoll(l->c_str()));
  Json data = Json::MakeArray();
  for (SimBatch* b : store.List(Provider::kOpenAi)) {
    if (static_cast<int64_t>(data.size()) >= limit) break;
    WriteResultFiles(store, *b, d);
    data.push_back(BatchObject(*b));
  }
  Json o = Json::MakeObject();
  o.set("object", "list");
  o.set("data", std::move(data));
  o.set("has_more", false);
  return http::JsonResponse(200, ToJson(o));
}

}  // namespace

std::optional<http::HttpResponse> ServeOpenAiBatches(BatchStore& store, const Dialect& d,
                                                     const KeyPolicy& keys,
                                                     const http::HttpRequest& r) {
  if (auto denied = d.CheckAuth(r, keys)) return std::move(*denied);
  const std::string& p = r.path;
  if (p == "/v1/files") {
    if (r.method != "POST") return d.Error(405, "Use POST to upload a file.");
    return Upload(store, d, r);
  }
  if (p.rfind("/v1/files/", 0) == 0) {
    std::string rest = p.substr(10);
    bool content = rest.size() > 8 && rest.compare(rest.size() - 8, 8, "/content") == 0;
    std::string id = content ? rest.substr(0, rest.size() - 8) : rest;
    SimFile* f = store.FindFile(id);
    if (!f) return d.Error(404, "No such File object: " + id);
    if (!content) return http::JsonResponse(200, ToJson(FileObject(*f)));
    http::HttpResponse resp;
    resp.status = 200;
    resp.body = f->content;
    resp.SetHeader("Content-Type", "application/octet-stream");
    if (f->result) store.Download(resp);
    return resp;
  }
  if (p == "/v1/batches") return r.method == "POST" ? Create(store, d, r) : List(store, d, r);
  std::string rest = p.substr(12);  // after "/v1/batches/"
  bool cancel = rest.size() > 7 && rest.compare(rest.size() - 7, 7, "/cancel") == 0;
  std::string id = cancel ? rest.substr(0, rest.size() - 7) : rest;
  SimBatch* b = cancel && r.method == "POST" ? store.Cancel(Provider::kOpenAi, id)
                                             : store.Find(Provider::kOpenAi, id);
  if (!b) return d.Error(404, "No batch found with id '" + id + "'.");
  WriteResultFiles(store, *b, d);
  return http::JsonResponse(200, ToJson(BatchObject(*b)));
}

}  // namespace structure::sim
