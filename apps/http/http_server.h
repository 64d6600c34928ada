// HttpServer: a small asynchronous HTTP/1.1 server (Boost.Asio + Beast) for loopback services:
// the provider simulator and the HTTP API. One event loop holds many thousands of idle or
// waiting connections; handlers answer through a callback, possibly later and from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "apps/http/http_message.h"
#include "base/status.h"

namespace structure::http {

// Sends the response for one request. Call it exactly once, from any thread; later calls are
// ignored. Dropping it without calling leaves the connection waiting until Stop().
using Responder = std::function<void(HttpResponse)>;

// Called on an event-loop thread for every complete request. Must not block: long work goes
// elsewhere and answers through the responder (or uses HttpServer::After for delays).
using Handler = std::function<void(HttpRequest request, Responder respond)>;

struct ServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0;                               // 0 picks a free port; see HttpServer::port()
  size_t max_body_bytes = 16 * 1024 * 1024;        // larger bodies get 413 and a close
  std::string max_body_key = "max_body_bytes";     // the setting the 413 names
  size_t max_header_bytes = 64 * 1024;             // larger headers get 431 and a close
  std::chrono::milliseconds idle_timeout{120000};  // idle keep-alive connections are closed
  std::chrono::milliseconds stop_grace{5000};      // Stop() waits this long for pending answers
  int threads = 1;                                 // event-loop threads started by Run()
  int backlog = 4096;
};

class HttpServer {
 public:
  // Binds and listens (so port() is known on return); serving starts with Run().
  // Errors: kInvalidArgument for a bad host, kUnavailable when the address cannot be bound.
  static Result<std::unique_ptr<HttpServer>> Create(const ServerOptions& options, Handler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // The bound port (the real one when options.port was 0).
  uint16_t port() const;

  // Serves until Stop() has finished; blocks the calling thread (plus options.threads - 1
  // helper threads). Call once.
  void Run();

  // Graceful stop, callable from any thread (not from a signal handler): stops accepting,
  // closes idle connections, lets answers already under way finish for up to stop_grace,
  // then closes everything and makes Run() return.
  void Stop();

  // Runs fn on the event loop after delay, using a timer (no thread sleeps). Thread-safe.
  // Pending timers are dropped when the server stops.
  void After(std::chrono::milliseconds delay, std::function<void()> fn);

  // Connections currently open (for stats).
  size_t open_connections() const;

  class Impl;

 private:
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace structure::http
