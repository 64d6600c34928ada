// The curl transport's transfers: an easy handle set up once with the options every transfer
// shares, then per request only the options that changed; the response read back (body and
// headers); the transfer taken off its shard and kept as a spare.
#include <algorithm>
#include <charconv>

#include <curl/curl.h>

#include "providers/transport/curl_network.h"
#include "providers/transport/curl_transport_internal.h"

namespace structure::providers::detail {
namespace {

// libcurl's smallest upload buffer (its default is 64 KB). libcurl 7.88 allocates it for every
// transfer that sends a body and frees it when the transfer ends; an HTTP/2 body goes through
// it. TLS records and HTTP/2 frames carry at most 16 KB, so larger bodies take no more writes.
constexpr long kUploadBufferBytes = 16 * 1024;

}  // namespace

size_t CurlTransport::OnWrite(char* data, size_t size, size_t n, void* userp) {
  auto* t = static_cast<Transfer*>(userp);
  t->response.body.append(data, size * n);
  return size * n;
}

size_t CurlTransport::OnHeader(char* data, size_t size, size_t n, void* userp) {
  auto* t = static_cast<Transfer*>(userp);
  std::string_view line(data, size * n);
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.remove_suffix(1);
  if (line.rfind("HTTP/", 0) == 0) {
    t->response.headers.clear();  // a new response (after 100-continue or a redirect)
    return size * n;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return size * n;
  std::string name(line.substr(0, colon));
  for (char& c : name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');  // ASCII: no locale
  }
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  if (name == "content-length") {
    // One allocation for the body instead of one per doubling; capped against a lying server.
    size_t length = 0;
    std::from_chars(value.data(), value.data() + value.size(), length);
    t->response.body.reserve(std::min<size_t>(length, size_t{1} << 20));
  }
  if (t->response.headers.empty()) t->response.headers.reserve(12);
  t->response.headers.emplace_back(std::move(name), std::string(value));
  return size * n;
}

// A new transfer and its easy handle with the options every transfer shares.
std::unique_ptr<Transfer> CurlTransport::NewTransfer() {
  CURL* e = curl_easy_init();
  if (!e) return nullptr;
  auto t = std::make_unique<Transfer>();
  t->easy = e;
  curl_easy_setopt(e, CURLOPT_PRIVATE, t.get());
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->error);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, t.get());
  curl_easy_setopt(e, CURLOPT_HEADERDATA, t.get());
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &CurlTransport::OnWrite);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &CurlTransport::OnHeader);
  curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(e, CURLOPT_BUFFERSIZE, options_.receive_buffer_bytes);
  curl_easy_setopt(e, CURLOPT_UPLOAD_BUFFERSIZE, kUploadBufferBytes);
  curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, &CurlTransport::OnOpenSocket);
  curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, this);
  curl_easy_setopt(e, CURLOPT_CLOSESOCKETFUNCTION, &CurlTransport::OnCloseSocket);
  curl_easy_setopt(e, CURLOPT_CLOSESOCKETDATA, this);
  curl_easy_setopt(e, CURLOPT_SHARE, share_);
  ApplyNetwork(e, options_.network);
  return t;
}

// Fails one transfer at once, without curl.
void CurlTransport::FailNow(uint64_t id, std::string text) {
  std::vector<Completion> done(1);
  done[0].id = id;
  done[0].response.error = TransportError::kOther;
  done[0].response.error_text = std::move(text);
  sink_(std::move(done));
}

void CurlTransport::Add(uint64_t id, HttpRequest request) {
  // A duplicate id is a caller bug; fail the newcomer rather than lose the first transfer.
  if (active_.count(id) > 0) return FailNow(id, "duplicate transfer id");
  std::unique_ptr<Transfer> t;
  if (!spare_.empty()) {
    t = std::move(spare_.back());
    spare_.pop_back();
  } else {
    t = NewTransfer();
  }
  if (!t) return FailNow(id, "curl_easy_init failed");
  t->id = id;
  SetOptions(*t, request);
  t->started = Clock::now();
  Transfer* raw = t.get();
  active_.emplace(id, std::move(t));
  Shard* shard = PickShard();
  raw->shard = shard->index;
  ++shard->active;
  curl_multi_add_handle(shard->multi, raw->easy);
}

// Sets the options that differ between transfers; on a reused handle, only those that differ
// from its previous transfer (curl keeps every option of a handle until it is changed).
void CurlTransport::SetOptions(Transfer& t, HttpRequest& r) {
  CURL* e = t.easy;
  t.body = std::move(r.body);
  if (t.url != r.url) {
    curl_easy_setopt(e, CURLOPT_URL, r.url.c_str());  // curl keeps a copy
    t.url = std::move(r.url);
  }
  if (t.method != r.method) {
    if (r.method == "POST") {
      curl_easy_setopt(e, CURLOPT_POST, 1L);
      curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, nullptr);
    } else {
      curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
      curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, r.method == "GET" ? nullptr : r.method.c_str());
    }
    t.method = std::move(r.method);
  }
  if (t.method == "POST") {
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, t.body.data());
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(t.body.size()));
  }
  // curl keeps only the list's address, so an equal address needs no new setopt.
  t.headers = header_lists_.For(r.headers, &t.owns_headers);
  if (t.set_headers != t.headers) {
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, t.headers);
    t.set_headers = t.headers;
  }
  int64_t timeout_ms = std::max<int64_t>(r.timeout_ms, 0);
  if (t.timeout_ms != timeout_ms) {
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_ms));
    t.timeout_ms = timeout_ms;
  }
  // Over plain http curl only learns from the first response that HTTP/1.1 cannot multiplex,
  // so PIPEWAIT there would stall the whole first wave by one latency.
  int https = t.url.rfind("https://", 0) == 0 ? 1 : 0;
  if (https && !t.ca_store_applied) UseCaStore(t);
  if (t.https != https) {
    curl_easy_setopt(e, CURLOPT_PIPEWAIT, static_cast<long>(https));
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION,
                     static_cast<long>(https ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_NONE));
    t.https = https;
  }
}

// The CA store is parsed at the first https transfer (~100 ms for Debian's bundle), so a
// transport that only speaks plain http (a local server) never pays for it. Each handle is
// pointed at it once.
void CurlTransport::UseCaStore(Transfer& t) {
  if (!ca_store_tried_) {
    ca_store_tried_ = true;
    ca_store_ = CurlCaStore::Load(options_.network);
  }
  if (ca_store_) ca_store_->Apply(t.easy);
  t.ca_store_applied = true;
}

// Takes the transfer off its shard; its handle stays with it.
void CurlTransport::Drop(Transfer* t) {
  Shard& shard = *shards_[t->shard];
  --shard.active;
  curl_multi_remove_handle(shard.multi, t->easy);
  if (t->owns_headers) curl_slist_free_all(t->headers);
  t->headers = nullptr;
  t->owns_headers = false;
}

// Keeps a dropped transfer (and its handle) for the next one. Spares are not capped: they never
// outnumber the most transfers that were in flight at once, memory the process already held
// (the allocator keeps what is freed). Freeing part of them after a burst made the next burst
// allocate them again, and that churn raised and scattered peak RSS (docs/providers.md).
void CurlTransport::Recycle(std::unique_ptr<Transfer> t) {
  std::string().swap(t->body);  // a spare holds no request
  t->response = HttpResponse();
  t->error[0] = 0;
  spare_.push_back(std::move(t));
}

}  // namespace structure::providers::detail
