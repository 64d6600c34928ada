#include "batch/batch_client.h"

#include "providers/anthropic/anthropic_batch.h"
#include "providers/gemini/gemini_batch.h"
#include "providers/http_status.h"
#include "providers/openai/openai_batch.h"
#include "providers/wire_util.h"

namespace structure::batch {

namespace {

using providers::HttpResponse;
using providers::ProviderKind;

std::string_view KindName(ProviderKind kind) { return providers::ProviderKindName(kind); }

// The Status of a raw download (the file content, the results JSONL): ok for 2xx.
Status RawStatus(const HttpResponse& r, ProviderKind kind) {
  if (r.error == providers::TransportError::kNone && r.status >= 200 && r.status < 300)
    return Status::Ok();
  providers::ProviderError pe;
  if (r.error == providers::TransportError::kNone) pe = providers::ExtractProviderError(r.body);
  return providers::StatusFromHttp(r, KindName(kind), pe.message, pe.type);
}

// One line: the stored state line must not break the line structure of the stored text.
std::string OneLine(const std::string& body) {
  auto parsed = ParseJson(body);
  return parsed.ok() ? ToJson(*parsed) : body;
}

}  // namespace

bool HasBatchApi(ProviderKind kind) {
  return kind == ProviderKind::kOpenAi || kind == ProviderKind::kAnthropic ||
         kind == ProviderKind::kGemini;
}

BatchCaps ProviderCaps(ProviderKind kind) {
  switch (kind) {
    case ProviderKind::kAnthropic:
      return {providers::anthropic_batch::kMaxRequests, providers::anthropic_batch::kMaxBytes};
    case ProviderKind::kGemini:
      return {providers::gemini_batch::kMaxRequests, providers::gemini_batch::kMaxBytes};
    default:
      return {providers::openai_batch::kMaxRequests, providers::openai_batch::kMaxBytes};
  }
}

size_t ItemBytes(ProviderKind kind, const providers::BatchItem& item) {
  switch (kind) {
    case ProviderKind::kAnthropic:
      return providers::anthropic_batch::ItemBytes(item);
    case ProviderKind::kGemini:
      return providers::gemini_batch::ItemBytes(item);
    default:
      return providers::openai_batch::InputLine(item).size();
  }
}

BatchClient::BatchClient(providers::Endpoint endpoint, SendFn send, SleepFn sleep)
    : endpoint_(std::move(endpoint)), send_(std::move(send)), sleep_(std::move(sleep)) {}

Result<HttpResponse> BatchClient::Call(const providers::HttpRequest& request) {
  return SendWithRetries(send_, sleep_, request);
}

Result<HttpResponse> BatchClient::Create(const providers::HttpRequest& create,
                                         const SubmitRequest& request, int64_t since_unix_ms,
                                         std::optional<std::string>* found) {
  RetryPolicy once;
  once.max_retries = 0;  // 429s are still waited out: the provider refused, nothing was created
  std::chrono::milliseconds backoff = RetryPolicy{}.first_backoff;
  for (int attempt = 0;; ++attempt) {
    HttpResponse r = SendWithRetries(send_, sleep_, create, once);
    bool lost = r.error != providers::TransportError::kNone || r.status >= 500 || r.status == 408;
    if (!lost || attempt >= RetryPolicy{}.max_retries) return r;
    auto existing = Find(request, since_unix_ms);
    if (existing.ok() && *existing) {
      *found = *existing;
      return r;
    }
    if (!sleep_(backoff)) return r;
    backoff = std::min(backoff * 2, RetryPolicy{}.max_backoff);
  }
}

Result<std::string> BatchClient::Submit(const SubmitRequest& request, const std::string& file_id,
                                        const std::function<void(const std::string&)>& uploaded,
                                        int64_t since_unix_ms) {
  std::optional<std::string> found;
  switch (endpoint_.kind) {
    case ProviderKind::kOpenAi: {
      std::string file = file_id;
      if (file.empty()) {
        std::string jsonl;
        for (const auto& item : request.items) jsonl += providers::openai_batch::InputLine(item);
        auto r =
            Call(providers::openai_batch::UploadFile(endpoint_, jsonl, request.key + ".jsonl"));
        if (!r.ok()) return r.status();
        auto id = providers::openai_batch::ParseFile(*r);
        if (!id.ok()) return id.status();
        file = *id;
        uploaded(file);
      }
      auto r = Create(providers::openai_batch::CreateBatch(
                          endpoint_, file, {{"structure_submit", request.key}},
                          providers::openai_batch::EndpointFor(endpoint_, request.model)),
                      request, since_unix_ms, &found);
      if (found) return *found;
      if (!r.ok()) return r.status();
      auto info = providers::openai_batch::ParseBatch(*r);
      if (!info.ok()) return info.status();
      return info->id;
    }
    case ProviderKind::kAnthropic: {
      auto r = Create(providers::anthropic_batch::CreateBatch(endpoint_, request.items), request,
                      since_unix_ms, &found);
      if (found) return *found;
      if (!r.ok()) return r.status();
      auto info = providers::anthropic_batch::ParseBatch(*r);
      if (!info.ok()) return info.status();
      return info->id;
    }
    case ProviderKind::kGemini: {
      auto r = Create(providers::gemini_batch::CreateBatch(endpoint_, request.model, request.key,
                                                           request.items),
                      request, since_unix_ms, &found);
      if (found) return *found;
      if (!r.ok()) return r.status();
      auto info = providers::gemini_batch::ParseBatch(*r);
      if (!info.ok()) return info.status();
      return info->id;
    }
    default:
      return InvalidArgument(std::string(KindName(endpoint_.kind)) + " has no batch API");
  }
}

Result<Polled> BatchClient::Poll(const std::string& batch_id) {
  providers::HttpRequest req;
  switch (endpoint_.kind) {
    case ProviderKind::kOpenAi:
      req = providers::openai_batch::RetrieveBatch(endpoint_, batch_id);
      break;
    case ProviderKind::kAnthropic:
      req = providers::anthropic_batch::RetrieveBatch(endpoint_, batch_id);
      break;
    case ProviderKind::kGemini:
      req = providers::gemini_batch::GetBatch(endpoint_, batch_id);
      break;
    default:
      return InvalidArgument("no batch API");
  }
  auto r = Call(req);
  if (!r.ok()) return r.status();
  Result<providers::BatchInfo> info =
      endpoint_.kind == ProviderKind::kOpenAi      ? providers::openai_batch::ParseBatch(*r)
      : endpoint_.kind == ProviderKind::kAnthropic ? providers::anthropic_batch::ParseBatch(*r)
                                                   : providers::gemini_batch::ParseBatch(*r);
  if (!info.ok()) return info.status();
  return Polled{std::move(*info), std::move(r->body)};
}

Result<std::string> BatchClient::Download(const Polled& polled) {
  std::string out = OneLine(polled.body);
  out += '\n';
  const providers::BatchInfo& info = polled.info;
  std::vector<providers::HttpRequest> gets;
  if (endpoint_.kind == ProviderKind::kOpenAi) {
    for (const std::string& file : {info.output_file_id, info.error_file_id}) {
      if (!file.empty()) gets.push_back(providers::openai_batch::FileContent(endpoint_, file));
    }
  } else if (endpoint_.kind == ProviderKind::kAnthropic &&
             info.state == providers::BatchState::kEnded) {
    gets.push_back(providers::anthropic_batch::Results(endpoint_, info));
  }
  for (const auto& get : gets) {
    auto r = Call(get);
    if (!r.ok()) return r.status();
    STRUCTURE_RETURN_IF_ERROR(RawStatus(*r, endpoint_.kind));
    out += r->body;
    if (!out.empty() && out.back() != '\n') out += '\n';
  }
  return out;
}

Result<std::optional<std::string>> BatchClient::Find(const SubmitRequest& request,
                                                     int64_t since_unix_ms) {
  switch (endpoint_.kind) {
    case ProviderKind::kOpenAi: {
      auto r = Call(providers::openai_batch::ListBatches(endpoint_, 100));
      if (!r.ok()) return r.status();
      STRUCTURE_RETURN_IF_ERROR(RawStatus(*r, endpoint_.kind));
      return providers::openai_batch::FindInList(*r, "structure_submit", request.key);
    }
    case ProviderKind::kGemini: {
      auto r = Call(providers::gemini_batch::ListBatches(endpoint_, 100));
      if (!r.ok()) return r.status();
      STRUCTURE_RETURN_IF_ERROR(RawStatus(*r, endpoint_.kind));
      return providers::gemini_batch::FindInList(*r, request.key);
    }
    case ProviderKind::kAnthropic: {
      auto r = Call(providers::anthropic_batch::ListBatches(endpoint_, 100));
      if (!r.ok()) return r.status();
      STRUCTURE_RETURN_IF_ERROR(RawStatus(*r, endpoint_.kind));
      auto ids = providers::anthropic_batch::MatchInList(
          *r, since_unix_ms, static_cast<int64_t>(request.items.size()));
      std::erase_if(ids, [this](const std::string& id) { return known_.count(id) > 0; });
      if (ids.size() == 1) return std::optional<std::string>(ids.front());
      if (ids.empty()) return std::optional<std::string>();
      return Status(Code::kFailedPrecondition,
                    std::to_string(ids.size()) +
                        " anthropic batches created since the submit match it; "
                        "cancel the extra ones in the console, then --resume");
    }
    default:
      return std::optional<std::string>();
  }
}

Result<providers::ItemResults> ParseStored(ProviderKind kind, std::string_view stored,
                                           const std::vector<std::string>& custom_ids) {
  size_t nl = stored.find('\n');
  std::string_view state_line = stored.substr(0, nl);
  std::string_view rest = nl == std::string_view::npos ? std::string_view() : stored.substr(nl + 1);
  HttpResponse state;
  state.status = 200;
  state.body = std::string(state_line);
  Result<providers::BatchInfo> info =
      kind == ProviderKind::kOpenAi      ? providers::openai_batch::ParseBatch(state)
      : kind == ProviderKind::kAnthropic ? providers::anthropic_batch::ParseBatch(state)
                                         : providers::gemini_batch::ParseBatch(state);
  if (!info.ok()) return info.status();
  providers::ItemResults results;
  Status parsed = kind == ProviderKind::kOpenAi
                      ? providers::openai_batch::ParseResults(rest, results)
                  : kind == ProviderKind::kAnthropic
                      ? providers::anthropic_batch::ParseResults(rest, results)
                      : providers::gemini_batch::ParseResults(state_line, custom_ids, results);
  if (!parsed.ok()) return parsed;
  for (const std::string& id : custom_ids) {
    if (!results.count(id)) results[id] = providers::UnansweredItem(*info, KindName(kind));
  }
  return results;
}

}  // namespace structure::batch
