#include "providers/openai/openai_batch.h"

#include "providers/models.h"
#include "providers/wire_util.h"

namespace structure::providers::openai_batch {

namespace {

constexpr std::string_view kProvider = "openai";

HttpRequest Get(const Endpoint& endpoint, std::string path) {
  HttpRequest r;
  r.method = "GET";
  r.url = JoinUrl(endpoint, path);
  r.headers = JsonHeaders(BearerAuth(endpoint));
  r.timeout_ms = endpoint.timeout_ms;
  return r;
}

ItemResult FromErrorObject(const Json& error) {
  std::string code = StringAt(error, "code");
  std::string message = StringAt(error, "message");
  ItemResult r;
  // OpenAI's own codes for requests a batch never ran.
  if (code == "batch_expired") {
    r.code = ErrorCode::kBatchExpired;
    r.transient = true;
    r.reply = Status(Code::kUnavailable, "openai batch: " + message);
  } else if (code == "batch_cancelled") {
    r.code = ErrorCode::kBatchCancelled;
    r.reply = Status(Code::kCancelled, "openai batch: " + message);
  } else {
    r.reply = Status(Code::kInvalidArgument, "openai batch request error" +
                                                 (code.empty() ? "" : " " + code) + ": " + message);
  }
  return r;
}

}  // namespace

std::string_view EndpointFor(const Endpoint& endpoint, std::string_view model) {
  return ApiFor(endpoint, model) == OpenAiApi::kResponses ? kResponsesEndpoint : kEndpoint;
}

std::string InputLine(const BatchItem& item) {
  const std::string& url = item.request->url;
  bool responses = url.size() >= kResponsesEndpoint.size() &&
                   url.compare(url.size() - kResponsesEndpoint.size(), std::string::npos,
                               kResponsesEndpoint) == 0;
  Json line = Json::MakeObject();
  line.set("custom_id", item.custom_id);
  line.set("method", "POST");
  line.set("url", responses ? kResponsesEndpoint : kEndpoint);
  line.set("body", nullptr);
  JsonSplice splice{line.find("body"), item.request->body};
  std::string out = ToJsonSpliced(line, {&splice, 1});
  out += '\n';
  return out;
}

HttpRequest UploadFile(const Endpoint& endpoint, std::string_view jsonl,
                       std::string_view file_name) {
  // The boundary only has to be absent from the content; JSONL never holds a raw CR LF pair
  // followed by dashes, and the random-looking tail makes a collision with text implausible.
  const std::string boundary = "structure-batch-7f3a9c2e41d84b6b";
  HttpRequest r;
  r.method = "POST";
  r.url = JoinUrl(endpoint, "/v1/files");
  r.headers = BearerAuth(endpoint);
  r.headers.emplace_back("Content-Type", "multipart/form-data; boundary=" + boundary);
  r.headers.emplace_back("Accept", "application/json");
  r.body = MultipartBody(boundary, {{"purpose", "batch"}}, "file", file_name, "application/jsonl",
                         jsonl);
  r.timeout_ms = endpoint.timeout_ms;
  return r;
}

Result<std::string> ParseFile(const HttpResponse& response) {
  auto body = ParseReplyBody(response, kProvider);
  if (!body.ok()) return body.status();
  std::string id = StringAt(*body, "id");
  if (id.empty()) return Unavailable("openai files: the upload reply has no file id");
  return id;
}

HttpRequest CreateBatch(const Endpoint& endpoint, std::string_view input_file_id,
                        const std::vector<std::pair<std::string, std::string>>& metadata,
                        std::string_view batch_endpoint) {
  Json body = Json::MakeObject();
  body.set("input_file_id", input_file_id);
  body.set("endpoint", batch_endpoint);
  body.set("completion_window", "24h");
  if (!metadata.empty()) {
    Json m = Json::MakeObject();
    for (const auto& [k, v] : metadata) m.set(k, v);
    body.set("metadata", std::move(m));
  }
  return JsonPost(endpoint, "/v1/batches", BearerAuth(endpoint), body);
}

HttpRequest RetrieveBatch(const Endpoint& endpoint, std::string_view batch_id) {
  return Get(endpoint, "/v1/batches/" + std::string(batch_id));
}

HttpRequest CancelBatch(const Endpoint& endpoint, std::string_view batch_id) {
  return JsonPost(endpoint, "/v1/batches/" + std::string(batch_id) + "/cancel",
                  BearerAuth(endpoint), Json::MakeObject());
}

HttpRequest ListBatches(const Endpoint& endpoint, int limit) {
  return Get(endpoint, "/v1/batches?limit=" + std::to_string(limit));
}

HttpRequest FileContent(const Endpoint& endpoint, std::string_view file_id) {
  HttpRequest r = Get(endpoint, "/v1/files/" + std::string(file_id) + "/content");
  r.headers = BearerAuth(endpoint);
  return r;
}

Result<BatchInfo> ParseBatch(const HttpResponse& response) {
  auto body = ParseReplyBody(response, kProvider);
  if (!body.ok()) return body.status();
  const Json& b = *body;
  BatchInfo info;
  info.id = StringAt(b, "id");
  if (info.id.empty()) return Unavailable("openai batches: the reply has no batch id");
  info.status = StringAt(b, "status");
  if (info.status == "completed") {
    info.state = BatchState::kEnded;
  } else if (info.status == "failed") {
    info.state = BatchState::kFailed;
  } else if (info.status == "expired") {
    info.state = BatchState::kExpired;
  } else if (info.status == "cancelled") {
    info.state = BatchState::kCancelled;
  }
  if (const Json* counts = b.find("request_counts"); counts && counts->is_object()) {
    info.total = IntAt(*counts, "total");
    info.succeeded = IntAt(*counts, "completed");
    info.failed = IntAt(*counts, "failed");
  }
  info.output_file_id = StringAt(b, "output_file_id");
  info.error_file_id = StringAt(b, "error_file_id");
  if (const Json* data = MemberAt(b, {"errors", "data"});
      data && data->is_array() && data->size() > 0) {
    const Json& first = data->as_array().front();
    info.error = StringAt(first, "code") + ": " + StringAt(first, "message");
    if (int64_t line = IntAt(first, "line"); line > 0)
      info.error += " (line " + std::to_string(line) + ")";
  }
  return info;
}

std::optional<std::string> FindInList(const HttpResponse& response, std::string_view key,
                                      std::string_view value) {
  auto body = ParseReplyBody(response, kProvider);
  if (!body.ok()) return std::nullopt;
  const Json* data = body->find("data");
  if (!data || !data->is_array()) return std::nullopt;
  for (const Json& b : data->as_array()) {
    const Json* meta = b.find("metadata");
    if (meta && meta->is_object() && StringAt(*meta, key) == value) return StringAt(b, "id");
  }
  return std::nullopt;
}

Status ParseResults(std::string_view jsonl, ItemResults& out) {
  return ForEachLine(jsonl, [&](uint64_t line_no, std::string_view text) -> Status {
    ParseOptions po;
    po.source = "openai batch results";
    auto line = ParseJson(text, po);
    std::string at = "openai batch results line " + std::to_string(line_no) + ": ";
    if (!line.ok()) return InvalidArgument(at + line.status().message());
    std::string id = line->is_object() ? StringAt(*line, "custom_id") : "";
    if (id.empty()) return InvalidArgument(at + "no custom_id");
    const Json* response = line->find("response");
    const Json* error = line->find("error");
    if (response && response->is_object()) {
      const Json* body = response->find("body");
      out[id] =
          ItemFromHttp(ProviderKind::kOpenAi, static_cast<int>(IntAt(*response, "status_code")),
                       body ? ToJson(*body) : std::string());
    } else if (error && error->is_object()) {
      out[id] = FromErrorObject(*error);
    } else {
      return InvalidArgument(at + "neither a response nor an error");
    }
    return Status::Ok();
  });
}

}  // namespace structure::providers::openai_batch
