// sim_load: opens N concurrent connections to a running `structure sim`, sends one chat request
// on each, waits for every response, and reports wall time, peak concurrency and the CPU time
// the simulator process used meanwhile (from /proc/<pid>/stat). epoll, one thread.
//
//   sim_load --port P --sim-pid PID [--connections 10000] [--path /v1/chat/completions]
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Conn {
  int fd = -1;
  size_t sent = 0;
  std::string in;
  bool connected = false;
  bool done = false;
};

double ProcessCpuSeconds(int pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(f, line);
  size_t close_paren = line.rfind(')');
  if (close_paren == std::string::npos) return -1;
  std::istringstream rest(line.substr(close_paren + 2));
  std::string field;
  // Fields after the command: state(3) ... utime(14) stime(15).
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14) utime = std::strtoull(field.c_str(), nullptr, 10);
    if (i == 15) stime = std::strtoull(field.c_str(), nullptr, 10);
  }
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

long ProcessRssKb(int pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

bool ResponseComplete(const std::string& in) {
  size_t end = in.find("\r\n\r\n");
  if (end == std::string::npos) return false;
  size_t cl = in.find("Content-Length: ");
  if (cl == std::string::npos || cl > end) return true;
  size_t len = std::strtoul(in.c_str() + cl + 16, nullptr, 10);
  return in.size() >= end + 4 + len;
}

const char* Arg(int argc, char** argv, const char* name, const char* fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  int port = std::atoi(Arg(argc, argv, "--port", "0"));
  int sim_pid = std::atoi(Arg(argc, argv, "--sim-pid", "0"));
  int n = std::atoi(Arg(argc, argv, "--connections", "10000"));
  int max_pending_connects = std::atoi(Arg(argc, argv, "--connect-burst", "2000"));
  std::string path = Arg(argc, argv, "--path", "/v1/chat/completions");
  if (port <= 0 || n <= 0) {
    std::fprintf(stderr,
                 "usage: sim_load --port P [--sim-pid PID] [--connections N] "
                 "[--connect-burst K] [--path P]\n");
    return 2;
  }
  rlimit rl{};
  getrlimit(RLIMIT_NOFILE, &rl);
  rl.rlim_cur = rl.rlim_max;
  setrlimit(RLIMIT_NOFILE, &rl);
  if (static_cast<long>(rl.rlim_cur) < n + 64) {
    std::fprintf(stderr, "RLIMIT_NOFILE %ld is too small for %d connections\n",
                 static_cast<long>(rl.rlim_cur), n);
    return 1;
  }

  std::string body =
      R"({"model":"gpt-4o-mini","messages":[{"role":"user","content":"Extract: ticket 17, priority high"}],)"
      R"("response_format":{"type":"json_schema","json_schema":{"name":"t","strict":true,"schema":)"
      R"({"type":"object","properties":{"id":{"type":"integer"},"priority":{"type":"string","enum":["low","high"]}},)"
      R"("required":["id","priority"],"additionalProperties":false}}}})";
  std::string request = "POST " + path +
                        " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        "Authorization: Bearer sk-load\r\nContent-Type: application/json\r\n"
                        "Content-Length: " +
                        std::to_string(body.size()) + "\r\n\r\n" + body;

  int ep = epoll_create1(0);
  std::vector<Conn> conns(static_cast<size_t>(n));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

  double cpu0 = sim_pid > 0 ? ProcessCpuSeconds(sim_pid) : 0;
  rusage self0{};
  getrusage(RUSAGE_SELF, &self0);
  auto t0 = std::chrono::steady_clock::now();

  // Phase 1 opens every connection (in bursts, so the listen backlog never overflows); phase 2
  // sends one request on each, so all N wait out the simulated latency at the same time.
  int opened = 0, pending_connects = 0, connected = 0, in_flight = 0, peak_in_flight = 0,
      completed = 0, failed = 0, ok200 = 0;
  bool sending = false;
  std::vector<epoll_event> events(4096);
  char buf[16384];
  auto open_more = [&] {
    while (opened < n && pending_connects < max_pending_connects) {
      Conn& c = conns[static_cast<size_t>(opened)];
      c.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
      if (c.fd < 0) {
        std::perror("socket");
        std::exit(1);
      }
      int rc = connect(c.fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
      if (rc != 0 && errno != EINPROGRESS) {
        std::perror("connect");
        std::exit(1);
      }
      epoll_event ev{};
      ev.events = EPOLLOUT;
      ev.data.u32 = static_cast<uint32_t>(opened);
      epoll_ctl(ep, EPOLL_CTL_ADD, c.fd, &ev);
      ++opened;
      ++pending_connects;
    }
  };
  auto fail = [&](Conn& c) {
    c.done = true;
    ++failed;
    close(c.fd);
  };
  open_more();
  double connect_s = 0;
  while (completed + failed < n) {
    if (!sending && connected + failed == n) {
      sending = true;
      connect_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      for (size_t i = 0; i < conns.size(); ++i) {
        Conn& c = conns[i];
        if (c.done) continue;
        ssize_t w = send(c.fd, request.data(), request.size(), MSG_NOSIGNAL);
        if (w != static_cast<ssize_t>(request.size())) {
          fail(c);
          continue;
        }
        c.sent = request.size();
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u32 = static_cast<uint32_t>(i);
        epoll_ctl(ep, EPOLL_CTL_MOD, c.fd, &ev);
        ++in_flight;
      }
      peak_in_flight = in_flight;
    }
    int k = epoll_wait(ep, events.data(), static_cast<int>(events.size()), 10000);
    if (k <= 0) {
      std::fprintf(stderr, "stalled: %d connected, %d completed, %d failed, %d in flight\n",
                   connected, completed, failed, in_flight);
      break;
    }
    for (int i = 0; i < k; ++i) {
      Conn& c = conns[events[static_cast<size_t>(i)].data.u32];
      if (c.done) continue;
      uint32_t e = events[static_cast<size_t>(i)].events;
      if (!c.connected) {
        int err = 0;
        socklen_t len = sizeof err;
        getsockopt(c.fd, SOL_SOCKET, SO_ERROR, &err, &len);
        --pending_connects;
        if (err != 0) {
          fail(c);
          continue;
        }
        c.connected = true;
        ++connected;
        epoll_event ev{};
        ev.events = 0;  // quiet until the request is sent
        ev.data.u32 = events[static_cast<size_t>(i)].data.u32;
        epoll_ctl(ep, EPOLL_CTL_MOD, c.fd, &ev);
        continue;
      }
      if (!(e & (EPOLLIN | EPOLLHUP | EPOLLERR))) continue;
      bool closed = false;
      while (true) {
        ssize_t r = recv(c.fd, buf, sizeof buf, 0);
        if (r > 0) {
          c.in.append(buf, static_cast<size_t>(r));
          continue;
        }
        closed = r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
        break;
      }
      if (ResponseComplete(c.in)) {
        c.done = true;
        ++completed;
        --in_flight;
        if (c.in.rfind("HTTP/1.1 200", 0) == 0) ++ok200;
        close(c.fd);
      } else if (closed) {
        --in_flight;
        fail(c);
      }
    }
    open_more();
  }
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double cpu = sim_pid > 0 ? ProcessCpuSeconds(sim_pid) - cpu0 : 0;
  rusage self1{};
  getrusage(RUSAGE_SELF, &self1);
  auto secs = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6; };
  double self_cpu =
      secs(self1.ru_utime) - secs(self0.ru_utime) + secs(self1.ru_stime) - secs(self0.ru_stime);
  std::printf("connections        %d\n", n);
  std::printf("completed          %d (HTTP 200: %d), failed %d\n", completed, ok200, failed);
  std::printf("connect phase      %.3f s (all connections open before any request)\n", connect_s);
  std::printf("peak in flight     %d (requests waiting on the simulator at once)\n",
              peak_in_flight);
  std::printf("wall time          %.3f s\n", wall);
  if (sim_pid > 0) {
    std::printf("sim cpu            %.3f s (%.1f%% of one core over the run)\n", cpu,
                100.0 * cpu / wall);
    std::printf("sim peak rss       %ld kB\n", ProcessRssKb(sim_pid));
  }
  std::printf("load tool cpu      %.3f s\n", self_cpu);
  return failed == 0 && completed == n ? 0 : 1;
}
