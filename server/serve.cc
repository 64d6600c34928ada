#include "server/serve.h"

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "http/http_server.h"
#include "server/api.h"
#include "server/metrics.h"

namespace structure::server {
namespace {

// Descriptors kept for everything but client connections: provider connections, the database,
// logs.
constexpr size_t kReservedDescriptors = 512;

// The connection cap the process can honour: the descriptor limit is raised to its hard limit,
// and the cap lowered (with a notice) when that is still too few.
size_t ConnectionCap(size_t wanted) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return wanted;
  if (limit.rlim_cur < limit.rlim_max) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  }
  if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= wanted + kReservedDescriptors)
    return wanted;
  size_t cap = limit.rlim_cur > 2 * kReservedDescriptors ? limit.rlim_cur - kReservedDescriptors
                                                         : limit.rlim_cur / 2;
  std::fprintf(stderr,
               "structure serve: server.max_connections lowered from %zu to %zu: the process may "
               "open %llu files (ulimit -n)\n",
               wanted, cap, static_cast<unsigned long long>(limit.rlim_cur));
  return cap;
}

const char* SignalName(int sig) { return sig == SIGINT ? "Ctrl-C" : "SIGTERM"; }

std::string Calls(long long n) { return std::to_string(n) + (n == 1 ? " call" : " calls"); }

}  // namespace

int Serve(EngineOptions engine_options, const ServerConfig& config) {
  // Blocked before any thread exists, so only the waiter below ever sees these signals.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  // /metrics answers without a key: nothing in it may name what one tenant owns.
  engine_options.hide_tenant_schemas = true;
  auto engine = Engine::Create(std::move(engine_options));
  if (!engine.ok()) {
    // What stops the engine from starting is the user's config or flags, as in run and mcp.
    std::fprintf(stderr, "structure serve: %s\n", engine.status().message().c_str());
    return 2;
  }
  Metrics metrics;
  Api api(**engine, config, metrics);
  http::ServerOptions so;
  so.host = config.host;
  so.port = config.port;
  so.max_body_bytes = config.limits.max_body_bytes;
  so.max_body_key = "server.max_body_bytes";
  so.stop_grace = std::chrono::milliseconds(config.stop_grace_ms);
  so.threads = config.threads;
  so.batch_window = std::chrono::microseconds(config.batch_window_us);
  so.header_timeout = std::chrono::milliseconds(config.limits.header_timeout_ms);
  so.body_timeout = std::chrono::milliseconds(config.limits.body_timeout_ms);
  so.idle_timeout = std::chrono::milliseconds(config.limits.idle_timeout_ms);
  so.write_timeout = std::chrono::milliseconds(config.limits.write_timeout_ms);
  so.send_buffer_bytes = config.limits.send_buffer_bytes;
  // Health probes still get an answer when every connection is busy (docs/server.md).
  so.reserved_connections = config.limits.health_connections;
  so.reserved_paths = {"/healthz", "/readyz"};
  so.local_error = LocalErrorFor;
  so.max_connections = ConnectionCap(config.limits.max_connections);
  so.max_requests_per_connection = config.limits.max_requests_per_connection;
  so.log = [](const std::string& line) {
    std::fprintf(stderr, "structure serve: %s\n", line.c_str());
  };
  auto server = http::HttpServer::Create(so, [&api](http::HttpRequest r, http::Responder respond) {
    api.Handle(std::move(r), std::move(respond));
  });
  if (!server.ok()) {
    std::fprintf(stderr, "structure serve: %s\n", server.status().message().c_str());
    return 1;
  }
  http::HttpServer* timers = server->get();
  api.SetTimer([timers](std::chrono::milliseconds delay, std::function<void()> fn) {
    timers->After(delay, std::move(fn));
  });
  if (config.keys.empty()) {
    std::fprintf(stderr,
                 "structure serve: warning: no API keys configured; every /v1 call gets 401\n");
  }
  std::printf("listening on %s:%u\n", config.host.c_str(),
              static_cast<unsigned>((*server)->port()));
  std::fflush(stdout);

  std::atomic<bool> served{false};
  http::HttpServer* raw = server->get();
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    if (served.load()) return;
    const long long underway = api.inflight();
    if (underway == 0) {
      std::fprintf(stderr, "structure serve: %s: stopping (no call under way)\n", SignalName(sig));
    } else {
      std::fprintf(stderr,
                   "structure serve: %s: stopping (finishing %s under way for up to %.0f s; "
                   "%s again stops now)\n",
                   SignalName(sig), Calls(underway).c_str(), config.stop_grace_ms / 1000.0,
                   SignalName(sig));
    }
    raw->Stop();
    sigwait(&stop_signals, &sig);
    if (served.load()) return;
    std::fprintf(stderr, "structure serve: %s again: stopping now (%s under way cancelled)\n",
                 SignalName(sig), Calls(api.inflight()).c_str());
    raw->StopNow();
  });
  (*server)->Run();
  served.store(true);
  // Wakes the waiter when Run ended without a signal; a pending signal does the same.
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  // The engine goes first: calls still waiting are answered (cancelled) while the server's
  // connections still exist.
  engine->reset();
  server->reset();
  std::fprintf(stderr, "structure serve: stopped\n");
  return 0;
}

}  // namespace structure::server
