#include "providers/curl_transport.h"

#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

#include <curl/curl.h>

#include "base/batch_window.h"
#include "providers/curl_ca_store.h"
#include "providers/curl_failure.h"
#include "providers/curl_header_lists.h"
#include "providers/curl_network.h"
#include "providers/epoll_sockets.h"

namespace structure::providers {
namespace {

using Clock = std::chrono::steady_clock;

// A transfer and its easy handle, kept together for reuse: the handle's options that point
// into the Transfer (private data, error buffer, write and header data) are set once, and a
// reused handle is given only the options that differ from its previous transfer.
struct Transfer {
  uint64_t id = 0;
  // The request body: CURLOPT_POSTFIELDS points into it until the transfer ends (curl sends it
  // again on a fresh connection when a reused one turns out dead after the upload).
  std::string body;
  HttpResponse response;
  CURL* easy = nullptr;  // owned: cleaned up with the Transfer (CurlTransport::Destroy)
  uint32_t shard = 0;
  curl_slist* headers = nullptr;  // from header_lists_
  bool owns_headers = false;      // freed by Drop (not a shared list)
  Clock::time_point started;
  // The per-transfer options as last set on `easy` (empty / -1: never set).
  std::string url;
  std::string method;
  curl_slist* set_headers = nullptr;
  int64_t timeout_ms = -1;
  int https = -1;
  bool ca_store_applied = false;
  char error[CURL_ERROR_SIZE] = {0};
};

// One multi handle and its connection cache. libcurl looks for a reusable connection by
// scanning every connection to the host in the cache, so one cache holding thousands of
// connections costs hundreds of microseconds per transfer; transfers are therefore spread over
// shards of at most kShardTransfers each, all driven by the same thread and epoll set.
struct Shard {
  CURLM* multi = nullptr;
  uint32_t index = 0;
  size_t active = 0;
  std::optional<Clock::time_point> timer_at;
  class CurlTransport* owner = nullptr;
  bool multiplexing = false;  // the server answered over HTTP/2: connections capped
};

// 64: half of nginx's default of 128 concurrent HTTP/2 streams per connection (many servers
// allow 100). Measured with 128 and 256 (docs/providers.md): a shard then holds more streams
// than the server takes on one connection, libcurl opens more connections (47 and 147 instead
// of 4 at 256 in flight) and CPU and memory per call rise.
constexpr size_t kShardTransfers = 64;
// Connections per host of a shard once its server is known to multiplex: the one in use and
// one more while a connection that got GOAWAY drains. Without the cap, every transfer waiting
// when a GOAWAY arrives opens a connection of its own (libcurl 7.88's PIPEWAIT only waits for
// a first connection), and a shard ends up holding dozens of idle ones.
constexpr long kMultiplexedConnections = 2;

// libcurl's smallest upload buffer (its default is 64 KB). libcurl 7.88 allocates it for every
// transfer that sends a body and frees it when the transfer ends; an HTTP/2 body goes through
// it. TLS records and HTTP/2 frames carry at most 16 KB, so larger bodies take no more writes.
constexpr long kUploadBufferBytes = 16 * 1024;

// Caps the shard's connections when its transfers run over HTTP/2, lifts the cap when they
// do not (an HTTP/1.1 server needs one connection per transfer in flight).
void NoteHttpVersion(Shard& shard, CURL* easy) {
  long version = 0;
  curl_easy_getinfo(easy, CURLINFO_HTTP_VERSION, &version);
  bool h2 = version == CURL_HTTP_VERSION_2_0;
  if (h2 == shard.multiplexing) return;
  shard.multiplexing = h2;
  curl_multi_setopt(shard.multi, CURLMOPT_MAX_HOST_CONNECTIONS, h2 ? kMultiplexedConnections : 0L);
}

class CurlTransport final : public Transport {
 public:
  CurlTransport(CompletionSink sink, const CurlOptions& options)
      : sink_(std::move(sink)), options_(options) {}
  ~CurlTransport() override { Shutdown(); }

  Status Init();

  // A wake-up is only needed when the hand-off lists were empty: otherwise one is already
  // pending and the I/O thread will take the whole list in one swap.
  void Start(uint64_t id, HttpRequest request) override {
    bool wake;
    {
      std::lock_guard<std::mutex> lock(mu_);
      wake = incoming_.empty() && cancels_.empty();
      incoming_.emplace_back(id, std::move(request));
    }
    if (wake) Wake();
  }

  void Cancel(uint64_t id) override {
    bool wake;
    {
      std::lock_guard<std::mutex> lock(mu_);
      wake = incoming_.empty() && cancels_.empty();
      cancels_.push_back(id);
    }
    if (wake) Wake();
  }

  void Shutdown() override;

 private:
  void Wake() {
    uint64_t one = 1;
    if (event_fd_ >= 0) (void)!write(event_fd_, &one, sizeof(one));
  }
  void Run();
  Shard* PickShard();
  std::unique_ptr<Transfer> NewTransfer();
  void FailNow(uint64_t id, std::string text);
  void Add(uint64_t id, HttpRequest request);
  void SetOptions(Transfer& t, HttpRequest& request);
  void Drop(Transfer* t);
  void Recycle(std::unique_ptr<Transfer> t);
  void UseCaStore(Transfer& t);
  size_t CollectDone(Shard& shard);

  static int OnSocket(CURL* easy, curl_socket_t s, int what, void* userp, void* socketp);
  static int OnTimer(CURLM* multi, long timeout_ms, void* userp);
  static curl_socket_t OnOpenSocket(void* clientp, curlsocktype purpose, curl_sockaddr* addr);
  static int OnCloseSocket(void* clientp, curl_socket_t s);
  static size_t OnWrite(char* data, size_t size, size_t n, void* userp);
  static size_t OnHeader(char* data, size_t size, size_t n, void* userp);

  CompletionSink sink_;
  CurlOptions options_;
  int epoll_fd_ = -1;
  int event_fd_ = -1;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::vector<std::pair<uint64_t, HttpRequest>> incoming_;  // guarded by mu_
  std::vector<uint64_t> cancels_;                           // guarded by mu_
  // Below: touched only by the I/O thread (and by Init / Shutdown around it).
  std::vector<std::unique_ptr<Shard>> shards_;
  std::optional<EpollSockets> sockets_;
  std::unordered_map<uint64_t, std::unique_ptr<Transfer>> active_;
  std::vector<std::unique_ptr<Transfer>> spare_;  // finished transfers, their handles kept
  CurlHeaderLists header_lists_;
  CURLSH* share_ = nullptr;  // TLS sessions and DNS, shared by every shard; cleaned up last
  std::unique_ptr<CurlCaStore> ca_store_;  // null: libcurl loads the CAs (per shard)
  bool ca_store_tried_ = false;
};

Status CurlTransport::Init() {
  InitCurlOnce();
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  event_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (epoll_fd_ < 0 || event_fd_ < 0) {
    return Internal("curl transport: cannot create the epoll set or the eventfd");
  }
  sockets_.emplace(epoll_fd_);
  share_ = NewSingleThreadShare();
  if (share_ == nullptr) return Internal("curl transport: cannot create a curl share handle");
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = ~uint64_t{0};
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, event_fd_, &ev) != 0) {
    return Internal("curl transport: cannot watch the eventfd");
  }
  if (!PickShard()) return Internal("curl transport: cannot create a curl multi handle");
  thread_ = std::thread([this] { Run(); });
  return Status::Ok();
}

// The least busy shard, or a new one when every shard is full.
Shard* CurlTransport::PickShard() {
  Shard* best = nullptr;
  for (auto& s : shards_) {
    if (!best || s->active < best->active) best = s.get();
  }
  if (best && best->active < kShardTransfers) return best;
  CURLM* multi = curl_multi_init();
  if (!multi) return best;
  auto shard = std::make_unique<Shard>();
  shard->multi = multi;
  shard->index = static_cast<uint32_t>(shards_.size());
  shard->owner = this;
  curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, &CurlTransport::OnSocket);
  curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, shard.get());
  curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, &CurlTransport::OnTimer);
  curl_multi_setopt(multi, CURLMOPT_TIMERDATA, shard.get());
  // Keep every idle connection for reuse; the default cache shrinks with the handle count.
  curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, static_cast<long>(4 * kShardTransfers));
  shards_.push_back(std::move(shard));
  return shards_.back().get();
}

void CurlTransport::Shutdown() {
  if (thread_.joinable()) {
    stop_ = true;
    Wake();
    thread_.join();
  }
  for (auto& [id, t] : active_) {
    Drop(t.get());
    curl_easy_cleanup(t->easy);
  }
  active_.clear();
  for (auto& t : spare_) curl_easy_cleanup(t->easy);
  spare_.clear();
  header_lists_.Clear();
  for (auto& s : shards_) curl_multi_cleanup(s->multi);
  shards_.clear();
  if (share_ != nullptr) curl_share_cleanup(share_);
  share_ = nullptr;
  ca_store_.reset();
  if (epoll_fd_ >= 0) close(epoll_fd_);
  if (event_fd_ >= 0) close(event_fd_);
  epoll_fd_ = event_fd_ = -1;
}

int CurlTransport::OnSocket(CURL*, curl_socket_t s, int what, void* userp, void*) {
  auto* shard = static_cast<Shard*>(userp);
  EpollSockets& sockets = *shard->owner->sockets_;
  if (what == CURL_POLL_REMOVE) {
    sockets.Unwant(s);
    return 0;
  }
  uint32_t events = 0;
  if (what == CURL_POLL_IN || what == CURL_POLL_INOUT) events |= EPOLLIN;
  if (what == CURL_POLL_OUT || what == CURL_POLL_INOUT) events |= EPOLLOUT;
  sockets.Want(s, events, shard->index);
  return 0;
}

int CurlTransport::OnTimer(CURLM*, long timeout_ms, void* userp) {
  auto* shard = static_cast<Shard*>(userp);
  if (timeout_ms < 0) {
    shard->timer_at.reset();
  } else {
    shard->timer_at = Clock::now() + std::chrono::milliseconds(timeout_ms);
  }
  return 0;
}

curl_socket_t CurlTransport::OnOpenSocket(void* clientp, curlsocktype, curl_sockaddr* addr) {
  auto* self = static_cast<CurlTransport*>(clientp);
  int fd = socket(addr->family, addr->socktype | SOCK_CLOEXEC, addr->protocol);
  if (fd < 0) return CURL_SOCKET_BAD;
  self->sockets_->Opened(fd);
  return fd;
}

int CurlTransport::OnCloseSocket(void* clientp, curl_socket_t s) {
  static_cast<CurlTransport*>(clientp)->sockets_->Closed(s);
  return close(s);
}

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

// Hands the shard's finished transfers to the sink as one batch (at most kShardTransfers, in a
// vector sized once): one batch for every shard of a busy loop made vectors of thousands of
// completions, grown by doubling on this thread and freed on the pool's, and that churn of
// large blocks raised peak RSS at 10 000 in flight (docs/providers.md). Returns how many
// transfers finished.
size_t CurlTransport::CollectDone(Shard& shard) {
  std::vector<Completion> done;
  int left = 0;
  while (CURLMsg* msg = curl_multi_info_read(shard.multi, &left)) {
    if (msg->msg != CURLMSG_DONE) continue;
    Transfer* t = nullptr;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char**>(&t));
    if (!t) continue;
    CURLcode code = msg->data.result;
    HttpResponse& resp = t->response;
    if (code == CURLE_OK) {
      long status = 0;
      curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
      resp.status = static_cast<int>(status);
      NoteHttpVersion(shard, t->easy);
    } else {
      DescribeFailure(t->easy, code, t->error, options_.network, &resp);
    }
    resp.wire_us =
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t->started).count();
    uint64_t id = t->id;
    Drop(t);
    auto it = active_.find(id);
    if (done.empty()) done.reserve(static_cast<size_t>(left) + 1);
    done.push_back(Completion{id, std::move(t->response)});
    Recycle(std::move(it->second));
    active_.erase(it);
  }
  size_t finished = done.size();
  if (finished > 0) sink_(std::move(done));
  return finished;
}

void CurlTransport::Run() {
  pthread_setname_np(pthread_self(), "curl-io");
  std::vector<std::pair<uint64_t, HttpRequest>> batch;
  std::vector<uint64_t> cancels;
  epoll_event events[256];
  int running = 0;
  BatchWindow window(options_.batch_window);
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      batch.swap(incoming_);
      cancels.swap(cancels_);
    }
    if (stop_) break;
    size_t units = batch.size() + cancels.size();  // for the batch window
    for (auto& [id, r] : batch) Add(id, std::move(r));
    batch.clear();
    for (uint64_t id : cancels) {
      auto it = active_.find(id);
      if (it == active_.end()) continue;
      Drop(it->second.get());
      Recycle(std::move(it->second));
      active_.erase(it);
    }
    cancels.clear();
    int wait_ms = 1000;
    auto now = Clock::now();
    for (const auto& sh : shards_) {
      if (!sh->timer_at) continue;
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(*sh->timer_at - now).count();
      wait_ms = std::min(wait_ms, static_cast<int>(std::max<int64_t>(ms, 0)));
    }
    int n = epoll_wait(epoll_fd_, events, 256, wait_ms);
    for (int i = 0; i < n; ++i) {
      uint64_t key = events[i].data.u64;
      if (key == ~uint64_t{0}) {
        uint64_t v;
        (void)!read(event_fd_, &v, sizeof(v));
        continue;
      }
      int fd = EpollSockets::FdOf(key);
      uint32_t owner = EpollSockets::OwnerOf(key);
      if (owner >= shards_.size() || !sockets_->TakeEvent(fd)) continue;
      int flags = 0;
      if (events[i].events & EPOLLIN) flags |= CURL_CSELECT_IN;
      if (events[i].events & EPOLLOUT) flags |= CURL_CSELECT_OUT;
      if (events[i].events & (EPOLLERR | EPOLLHUP)) flags |= CURL_CSELECT_ERR;
      curl_multi_socket_action(shards_[owner]->multi, fd, flags, &running);
    }
    now = Clock::now();
    for (auto& sh : shards_) {
      if (sh->timer_at && now >= *sh->timer_at) {
        sh->timer_at.reset();
        curl_multi_socket_action(sh->multi, CURL_SOCKET_TIMEOUT, 0, &running);
      }
      units += CollectDone(*sh);
    }
    window.AfterTurn(units);
  }
}

}  // namespace

void InitCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

Result<std::unique_ptr<Transport>> MakeCurlTransport(CompletionSink sink,
                                                     const CurlOptions& options) {
  auto t = std::make_unique<CurlTransport>(std::move(sink), options);
  STRUCTURE_RETURN_IF_ERROR(t->Init());
  return std::unique_ptr<Transport>(std::move(t));
}

TransportFactory CurlTransportFactory(const CurlOptions& options) {
  return [options](CompletionSink sink) -> std::unique_ptr<Transport> {
    auto t = MakeCurlTransport(std::move(sink), options);
    if (!t.ok()) return nullptr;
    return std::move(t).value();
  };
}

}  // namespace structure::providers
