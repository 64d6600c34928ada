#include "bench/curl_floor.h"

#include <sys/epoll.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <curl/curl.h>

#include "bench/pool_driver.h"
#include "bench/steady_window.h"

namespace structure::bench {
namespace {

using Clock = std::chrono::steady_clock;

// As the transport does (providers/transport/curl_transport.cc): libcurl scans a multi handle's
// whole connection cache per transfer, so transfers are spread over multi handles of 64.
constexpr int kShardTransfers = 64;

double Seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

struct Shard {
  int epoll_fd = -1;
  uint32_t index = 0;
  CURLM* multi = nullptr;
  bool timer_set = false;
  Clock::time_point timer_at;
};

int OnSocket(CURL*, curl_socket_t s, int what, void* userp, void* socketp) {
  auto* shard = static_cast<Shard*>(userp);
  if (what == CURL_POLL_REMOVE) {
    epoll_ctl(shard->epoll_fd, EPOLL_CTL_DEL, s, nullptr);
    curl_multi_assign(shard->multi, s, nullptr);
    return 0;
  }
  epoll_event ev{};
  ev.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
  ev.data.u64 = (uint64_t{shard->index} << 32) | static_cast<uint32_t>(s);
  if (socketp == nullptr) {
    if (epoll_ctl(shard->epoll_fd, EPOLL_CTL_ADD, s, &ev) != 0) {
      epoll_ctl(shard->epoll_fd, EPOLL_CTL_MOD, s, &ev);
    }
    curl_multi_assign(shard->multi, s, shard);
  } else {
    epoll_ctl(shard->epoll_fd, EPOLL_CTL_MOD, s, &ev);
  }
  return 0;
}

int OnTimer(CURLM*, long timeout_ms, void* userp) {
  auto* shard = static_cast<Shard*>(userp);
  shard->timer_set = timeout_ms >= 0;
  shard->timer_at = Clock::now() + std::chrono::milliseconds(timeout_ms);
  return 0;
}

size_t OnWrite(char* data, size_t size, size_t n, void* userp) {
  static_cast<std::string*>(userp)->append(data, size * n);
  return size * n;
}

struct Slot {
  CURL* easy = nullptr;
  Shard* shard = nullptr;
  std::string body;
};

struct Loop {
  int epoll_fd = -1;
  std::vector<std::unique_ptr<Shard>> shards;
  std::vector<Slot> slots;
};

// Runs `calls` transfers through the slots; returns how many ended with HTTP 200. Completion
// times (seconds since the start) go to `done_s`.
int Drive(Loop& loop, int calls, int* failed, std::vector<double>* done_s) {
  auto t0 = Clock::now();
  int started = 0, finished = 0, ok = 0, running = 0;
  for (Slot& s : loop.slots) {
    if (started == calls) break;
    s.body.clear();
    curl_multi_add_handle(s.shard->multi, s.easy);
    ++started;
  }
  epoll_event events[256];
  while (finished < calls) {
    int wait_ms = 1000;
    auto now = Clock::now();
    for (const auto& sh : loop.shards) {
      if (!sh->timer_set) continue;
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(sh->timer_at - now).count();
      wait_ms = std::min(wait_ms, static_cast<int>(std::max<int64_t>(0, ms)));
    }
    int n = epoll_wait(loop.epoll_fd, events, 256, wait_ms);
    for (int i = 0; i < n; ++i) {
      int flags = ((events[i].events & EPOLLIN) ? CURL_CSELECT_IN : 0) |
                  ((events[i].events & EPOLLOUT) ? CURL_CSELECT_OUT : 0) |
                  ((events[i].events & (EPOLLERR | EPOLLHUP)) ? CURL_CSELECT_ERR : 0);
      Shard& sh = *loop.shards[events[i].data.u64 >> 32];
      curl_multi_socket_action(
          sh.multi, static_cast<curl_socket_t>(events[i].data.u64 & 0xffffffffu), flags, &running);
    }
    now = Clock::now();
    for (auto& sh : loop.shards) {
      if (sh->timer_set && now >= sh->timer_at) {
        sh->timer_set = false;
        curl_multi_socket_action(sh->multi, CURL_SOCKET_TIMEOUT, 0, &running);
      }
      int left = 0;
      while (CURLMsg* msg = curl_multi_info_read(sh->multi, &left)) {
        if (msg->msg != CURLMSG_DONE) continue;
        CURL* e = msg->easy_handle;
        long status = 0;
        curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
        (msg->data.result == CURLE_OK && status == 200 ? ok : *failed)++;
        if (*failed == 1 && status != 200) {  // e.g. h2c on Debian 12's libcurl, see the header
          std::fprintf(stderr, "floor: first failure: %s, HTTP %ld\n",
                       curl_easy_strerror(msg->data.result), status);
        }
        ++finished;
        done_s->push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        curl_multi_remove_handle(sh->multi, e);
        if (started < calls) {
          Slot* slot = nullptr;
          curl_easy_getinfo(e, CURLINFO_PRIVATE, reinterpret_cast<char**>(&slot));
          slot->body.clear();
          curl_multi_add_handle(sh->multi, e);
          ++started;
        }
      }
    }
  }
  return ok;
}

}  // namespace

FloorRun BareCurlFloor(const providers::HttpRequest& request, int inflight, int calls,
                       FloorProtocol protocol, const std::string& ca_file,
                       const std::string& ca_path) {
  Loop loop;
  loop.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  for (int i = 0; i < inflight; i += kShardTransfers) {
    auto sh = std::make_unique<Shard>();
    sh->epoll_fd = loop.epoll_fd;
    sh->index = static_cast<uint32_t>(loop.shards.size());
    sh->multi = curl_multi_init();
    curl_multi_setopt(sh->multi, CURLMOPT_SOCKETFUNCTION, &OnSocket);
    curl_multi_setopt(sh->multi, CURLMOPT_SOCKETDATA, sh.get());
    curl_multi_setopt(sh->multi, CURLMOPT_TIMERFUNCTION, &OnTimer);
    curl_multi_setopt(sh->multi, CURLMOPT_TIMERDATA, sh.get());
    curl_multi_setopt(sh->multi, CURLMOPT_MAXCONNECTS, static_cast<long>(2 * kShardTransfers));
    // As the transport does over HTTP/2: one connection in use and one more while a connection
    // that got GOAWAY drains (otherwise every waiting transfer opens one of its own).
    if (protocol != FloorProtocol::kHttp1) {
      curl_multi_setopt(sh->multi, CURLMOPT_MAX_HOST_CONNECTIONS, 2L);
    }
    loop.shards.push_back(std::move(sh));
  }
  curl_slist* headers = nullptr;
  for (const auto& [name, value] : request.headers) {
    headers = curl_slist_append(headers, (name + ": " + value).c_str());
  }
  loop.slots.resize(static_cast<size_t>(inflight));
  for (size_t i = 0; i < loop.slots.size(); ++i) {
    Slot& s = loop.slots[i];
    s.shard = loop.shards[i / kShardTransfers].get();
    s.easy = curl_easy_init();
    curl_easy_setopt(s.easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(s.easy, CURLOPT_PROXY, "");
    curl_easy_setopt(s.easy, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(s.easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(s.easy, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(s.easy, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(s.easy, CURLOPT_BUFFERSIZE, 1024L);
    curl_easy_setopt(s.easy, CURLOPT_WRITEFUNCTION, &OnWrite);
    curl_easy_setopt(s.easy, CURLOPT_WRITEDATA, &s.body);
    curl_easy_setopt(s.easy, CURLOPT_PRIVATE, &s);
    if (!ca_file.empty()) curl_easy_setopt(s.easy, CURLOPT_CAINFO, ca_file.c_str());
    curl_easy_setopt(s.easy, CURLOPT_CAPATH, ca_path.empty() ? nullptr : ca_path.c_str());
    if (protocol != FloorProtocol::kHttp1) {
      curl_easy_setopt(
          s.easy, CURLOPT_HTTP_VERSION,
          static_cast<long>(protocol == FloorProtocol::kH2c ? CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE
                                                            : CURL_HTTP_VERSION_2TLS));
      curl_easy_setopt(s.easy, CURLOPT_PIPEWAIT, 1L);
    } else {
      curl_easy_setopt(s.easy, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
    }
  }
  FloorRun run;
  std::vector<double> done_s;
  Drive(loop, inflight, &run.failed, &done_s);  // warm-up: opens the connections
  done_s.clear();
  done_s.reserve(static_cast<size_t>(calls));
  run.failed = 0;
  rusage ru0{};
  getrusage(RUSAGE_SELF, &ru0);
  auto t0 = Clock::now();
  run.ok = Drive(loop, calls, &run.failed, &done_s);
  run.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  rusage ru1{};
  getrusage(RUSAGE_SELF, &ru1);
  run.sys_s = Seconds(ru1.ru_stime) - Seconds(ru0.ru_stime);
  run.cpu_s = Seconds(ru1.ru_utime) - Seconds(ru0.ru_utime) + run.sys_s;
  run.steady_per_s = SteadyRateOf(done_s, inflight);
  run.sockets = OpenSockets();
  for (Slot& s : loop.slots) curl_easy_cleanup(s.easy);
  curl_slist_free_all(headers);
  for (auto& sh : loop.shards) curl_multi_cleanup(sh->multi);
  close(loop.epoll_fd);
  return run;
}

}  // namespace structure::bench
