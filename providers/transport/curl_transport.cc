#include "providers/transport/curl_transport.h"

#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <mutex>

#include <curl/curl.h>

#include "base/batch_window.h"
#include "providers/transport/curl_failure.h"
#include "providers/transport/curl_network.h"
#include "providers/transport/curl_transport_internal.h"
#include "providers/transport/epoll_sockets.h"

namespace structure::providers {
namespace detail {
namespace {

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

}  // namespace

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
    ++finished_;
    finished_us_ += static_cast<uint64_t>(resp.wire_us);
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
    if (finished_ > 0) {
      window.Observe(std::chrono::microseconds(finished_us_ / finished_));
      finished_ = finished_us_ = 0;
    }
    window.AfterTurn(units, active_.size());
  }
}

}  // namespace detail

void InitCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

Result<std::unique_ptr<Transport>> MakeCurlTransport(CompletionSink sink,
                                                     const CurlOptions& options) {
  auto t = std::make_unique<detail::CurlTransport>(std::move(sink), options);
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
