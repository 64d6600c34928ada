#include "providers/curl_transport.h"

#include <curl/curl.h>
#include <sys/epoll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

namespace structure::providers {
namespace {

using Clock = std::chrono::steady_clock;

struct Transfer {
  uint64_t id = 0;
  HttpRequest request;
  HttpResponse response;
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  Clock::time_point started;
  char error[CURL_ERROR_SIZE] = {0};
};

TransportError MapCurlCode(CURLcode code) {
  switch (code) {
    case CURLE_OK: return TransportError::kNone;
    case CURLE_COULDNT_CONNECT: return TransportError::kConnect;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY: return TransportError::kDns;
    case CURLE_OPERATION_TIMEDOUT: return TransportError::kTimeout;
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return TransportError::kReset;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE: return TransportError::kTls;
    case CURLE_ABORTED_BY_CALLBACK: return TransportError::kCancelled;
    default: return TransportError::kOther;
  }
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
  void Add(uint64_t id, HttpRequest request);
  void Drop(Transfer* t);
  void CollectDone(std::vector<Completion>& done);

  static int OnSocket(CURL* easy, curl_socket_t s, int what, void* userp, void* socketp);
  static int OnTimer(CURLM* multi, long timeout_ms, void* userp);
  static size_t OnWrite(char* data, size_t size, size_t n, void* userp);
  static size_t OnHeader(char* data, size_t size, size_t n, void* userp);

  CompletionSink sink_;
  CurlOptions options_;
  CURLM* multi_ = nullptr;
  int epoll_fd_ = -1;
  int event_fd_ = -1;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::vector<std::pair<uint64_t, HttpRequest>> incoming_;  // guarded by mu_
  std::vector<uint64_t> cancels_;                           // guarded by mu_
  // Below: touched only by the I/O thread (and by Shutdown after the join).
  std::unordered_map<uint64_t, std::unique_ptr<Transfer>> active_;
  std::vector<CURL*> spare_easies_;
  std::optional<Clock::time_point> timer_at_;
};

Status CurlTransport::Init() {
  InitCurlOnce();
  multi_ = curl_multi_init();
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  event_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (!multi_ || epoll_fd_ < 0 || event_fd_ < 0) {
    return Internal("curl transport: cannot create the multi handle, epoll or eventfd");
  }
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = event_fd_;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, event_fd_, &ev) != 0) {
    return Internal("curl transport: cannot watch the eventfd");
  }
  curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &CurlTransport::OnSocket);
  curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
  curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &CurlTransport::OnTimer);
  curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
  // Keep every idle connection for reuse; the default cache shrinks with the handle count.
  curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, 16384L);
  if (options_.max_host_connections > 0) {
    curl_multi_setopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, options_.max_host_connections);
  }
  thread_ = std::thread([this] { Run(); });
  return Status::Ok();
}

void CurlTransport::Shutdown() {
  if (thread_.joinable()) {
    stop_ = true;
    Wake();
    thread_.join();
  }
  for (auto& [id, t] : active_) Drop(t.get());
  active_.clear();
  for (CURL* e : spare_easies_) curl_easy_cleanup(e);
  spare_easies_.clear();
  if (multi_) curl_multi_cleanup(multi_);
  multi_ = nullptr;
  if (epoll_fd_ >= 0) close(epoll_fd_);
  if (event_fd_ >= 0) close(event_fd_);
  epoll_fd_ = event_fd_ = -1;
}

int CurlTransport::OnSocket(CURL*, curl_socket_t s, int what, void* userp, void*) {
  auto* self = static_cast<CurlTransport*>(userp);
  if (what == CURL_POLL_REMOVE) {
    epoll_ctl(self->epoll_fd_, EPOLL_CTL_DEL, s, nullptr);
    return 0;
  }
  epoll_event ev{};
  ev.data.fd = s;
  if (what == CURL_POLL_IN || what == CURL_POLL_INOUT) ev.events |= EPOLLIN;
  if (what == CURL_POLL_OUT || what == CURL_POLL_INOUT) ev.events |= EPOLLOUT;
  // A closed-and-reused descriptor may or may not still be registered; try both ways.
  if (epoll_ctl(self->epoll_fd_, EPOLL_CTL_MOD, s, &ev) != 0) {
    epoll_ctl(self->epoll_fd_, EPOLL_CTL_ADD, s, &ev);
  }
  return 0;
}

int CurlTransport::OnTimer(CURLM*, long timeout_ms, void* userp) {
  auto* self = static_cast<CurlTransport*>(userp);
  if (timeout_ms < 0) {
    self->timer_at_.reset();
  } else {
    self->timer_at_ = Clock::now() + std::chrono::milliseconds(timeout_ms);
  }
  return 0;
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
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  t->response.headers.emplace_back(std::move(name), std::string(value));
  return size * n;
}

void CurlTransport::Add(uint64_t id, HttpRequest request) {
  auto t = std::make_unique<Transfer>();
  t->id = id;
  t->request = std::move(request);
  CURL* e;
  if (!spare_easies_.empty()) {
    e = spare_easies_.back();
    spare_easies_.pop_back();
    curl_easy_reset(e);
  } else {
    e = curl_easy_init();
  }
  t->easy = e;
  const HttpRequest& r = t->request;
  curl_easy_setopt(e, CURLOPT_URL, r.url.c_str());
  curl_easy_setopt(e, CURLOPT_PRIVATE, t.get());
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->error);
  if (r.method == "POST") {
    curl_easy_setopt(e, CURLOPT_POST, 1L);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, r.body.data());
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
  } else if (r.method != "GET") {
    curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, r.method.c_str());
  }
  for (const auto& [k, v] : r.headers) {
    t->headers = curl_slist_append(t->headers, (k + ": " + v).c_str());
  }
  // Without this curl waits up to a second for "100 Continue" on bodies over 1 KB.
  t->headers = curl_slist_append(t->headers, "Expect:");
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->headers);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &CurlTransport::OnWrite);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, t.get());
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &CurlTransport::OnHeader);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, t.get());
  if (r.timeout_ms > 0) curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(r.timeout_ms));
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout_ms));
  curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
  // An explicit empty proxy skips curl's per-transfer scan of the *_proxy variables.
  curl_easy_setopt(e, CURLOPT_PROXY, "");
  if (r.url.rfind("https://", 0) == 0) {
    // Over plain http curl only learns from the first response that HTTP/1.1 cannot
    // multiplex, so PIPEWAIT there would stall the whole first wave by one latency.
    curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
    if (!options_.verify_tls) {
      curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    }
  }
  t->started = Clock::now();
  Transfer* raw = t.get();
  auto [it, inserted] = active_.emplace(id, std::move(t));
  if (!inserted) {
    // A duplicate id is a caller bug; fail the newcomer rather than lose the first transfer.
    std::vector<Completion> done(1);
    done[0].id = id;
    done[0].response.error = TransportError::kOther;
    done[0].response.error_text = "duplicate transfer id";
    curl_slist_free_all(raw->headers);
    spare_easies_.push_back(e);
    sink_(std::move(done));
    return;
  }
  curl_multi_add_handle(multi_, e);
}

void CurlTransport::Drop(Transfer* t) {
  curl_multi_remove_handle(multi_, t->easy);
  curl_slist_free_all(t->headers);
  t->headers = nullptr;
  if (spare_easies_.size() < 4096) {
    spare_easies_.push_back(t->easy);
  } else {
    curl_easy_cleanup(t->easy);
  }
  t->easy = nullptr;
}

void CurlTransport::CollectDone(std::vector<Completion>& done) {
  int left = 0;
  while (CURLMsg* msg = curl_multi_info_read(multi_, &left)) {
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
    } else {
      resp.status = 0;
      resp.error = MapCurlCode(code);
      resp.error_text = curl_easy_strerror(code);
      if (t->error[0]) {
        resp.error_text += " (";
        resp.error_text += t->error;
        resp.error_text += ")";
      }
    }
    resp.wire_us = std::chrono::duration_cast<std::chrono::microseconds>(
                       Clock::now() - t->started).count();
    uint64_t id = t->id;
    Drop(t);
    auto it = active_.find(id);
    done.push_back(Completion{id, std::move(it->second->response)});
    active_.erase(it);
  }
}

void CurlTransport::Run() {
  pthread_setname_np(pthread_self(), "curl-io");
  std::vector<std::pair<uint64_t, HttpRequest>> batch;
  std::vector<uint64_t> cancels;
  std::vector<Completion> done;
  epoll_event events[256];
  int running = 0;
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      batch.swap(incoming_);
      cancels.swap(cancels_);
    }
    if (stop_) break;
    for (auto& [id, r] : batch) Add(id, std::move(r));
    batch.clear();
    for (uint64_t id : cancels) {
      auto it = active_.find(id);
      if (it == active_.end()) continue;
      Drop(it->second.get());
      active_.erase(it);
    }
    cancels.clear();
    // Completions from the duplicate-id path or earlier actions are collected below.
    int wait_ms = 1000;
    if (timer_at_) {
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(*timer_at_ - Clock::now())
                    .count();
      wait_ms = static_cast<int>(std::clamp<int64_t>(ms, 0, 1000));
    }
    int n = epoll_wait(epoll_fd_, events, 256, wait_ms);
    for (int i = 0; i < n; ++i) {
      int fd = events[i].data.fd;
      if (fd == event_fd_) {
        uint64_t v;
        (void)!read(event_fd_, &v, sizeof(v));
        continue;
      }
      int flags = 0;
      if (events[i].events & EPOLLIN) flags |= CURL_CSELECT_IN;
      if (events[i].events & EPOLLOUT) flags |= CURL_CSELECT_OUT;
      if (events[i].events & (EPOLLERR | EPOLLHUP)) flags |= CURL_CSELECT_ERR;
      curl_multi_socket_action(multi_, fd, flags, &running);
    }
    if (timer_at_ && Clock::now() >= *timer_at_) {
      timer_at_.reset();
      curl_multi_socket_action(multi_, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    CollectDone(done);
    if (!done.empty()) {
      sink_(std::move(done));
      done.clear();
    }
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
