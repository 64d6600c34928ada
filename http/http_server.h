// HttpServer: a small asynchronous HTTP/1.1 server (Boost.Asio + Beast) for loopback services:
// the provider simulator and the HTTP API. One event loop holds many thousands of idle or
// waiting connections; handlers answer through a callback, possibly later and from any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "http/http_message.h"
#include "structure/status.h"

namespace structure::http {

// Sends the response for one request. Call it exactly once, from any thread; later calls are
// ignored. Dropping it without calling leaves the connection waiting until Stop(). It holds
// its connection: drop it before the server is destroyed.
using Responder = std::function<void(HttpResponse)>;

// Called on an event-loop thread for every complete request. Must not block: long work goes
// elsewhere and answers through the responder (or uses HttpServer::After for delays).
using Handler = std::function<void(HttpRequest request, Responder respond)>;

struct ServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0;                            // 0 picks a free port; see HttpServer::port()
  size_t max_body_bytes = 16 * 1024 * 1024;     // larger bodies get 413 and a close
  std::string max_body_key = "max_body_bytes";  // the setting the 413 names
  size_t max_header_bytes = 64 * 1024;          // larger headers get 431 and a close
  // Read deadlines; a client that misses one is disconnected without an answer. The header
  // must be complete header_timeout after the connection opened or (keep-alive) after the
  // first byte of the next request; the body body_timeout after the header. The defaults are
  // the simulator's (a load generator may open thousands of connections before it writes);
  // `structure serve` sets its own from [server].
  std::chrono::milliseconds header_timeout{120000};
  std::chrono::milliseconds body_timeout{120000};
  std::chrono::milliseconds idle_timeout{
      120000};  // keep-alive: answer .. next request's first byte
  // Writing an answer (or a piece of a streamed one) must make progress within this: a client
  // that takes nothing for this long is reset (its unsent output dropped) and its stream
  // closed; one that reads slowly is not.
  std::chrono::milliseconds write_timeout{60000};
  // What a connection may hold of output its client has not taken: the kernel's send buffer
  // (SO_SNDBUF; Linux doubles it) besides the one answer being written (the server reads the
  // next request only after it). 0: the system's default.
  size_t send_buffer_bytes = 0;
  // Open connections at most. At the cap a new connection closes the oldest one that is not
  // being answered (waiting, or still sending its request); when every one is being answered
  // the new one gets 503 and a close. 0: no cap.
  size_t max_connections = 0;
  // Beyond the cap, up to this many more connections are kept for `reserved_paths` (health
  // probes): a GET or HEAD of one of them is answered, anything else gets 503; the connection
  // closes after its one answer, and its header must arrive within 2 s.
  size_t reserved_connections = 2;
  std::vector<std::string> reserved_paths;  // e.g. {"/healthz"}; empty: nothing is reserved
  // After an answer that ends the connection, what the client still sends is read and dropped
  // for up to this long before the socket closes, so a reset does not destroy answers it has
  // not read yet (pipelined requests past the last answer).
  std::chrono::milliseconds linger{2000};
  size_t max_requests_per_connection = 0;  // 0: no limit; the last answer says Connection: close
  std::chrono::milliseconds stop_grace{5000};  // Stop() waits this long for pending answers
  int threads = 1;                             // event-loop threads started by Run()
  // Under load (two requests read or answers written in a turn, or one, less than a window after
  // the last) the loop sleeps this long after a turn, so its next turn takes what arrived
  // meanwhile in one wake-up (base/batch_window.h). 0: never (it wakes for every event).
  std::chrono::microseconds batch_window{0};
  int backlog = 4096;
  // The answer the server gives itself (body over max_body_bytes 413, header too large 431,
  // malformed HTTP 400), by the request's target; unset: ErrorResponse. A 413 is answered while
  // the rest of the body is read and dropped (for up to body_timeout), so the client sees it.
  std::function<HttpResponse(const std::string& target, int status, const std::string& code,
                             const std::string& message)>
      local_error;
  // One-line notices (the connection cap was reached); called from event-loop threads.
  std::function<void(const std::string&)> log;
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
  // Stop() without the grace: answers still under way are not waited for (a second signal).
  // Callable after Stop().
  void StopNow();

  // Runs fn on the event loop after delay, using a timer (no thread sleeps). Thread-safe.
  // Pending timers are dropped when the server stops.
  void After(std::chrono::milliseconds delay, std::function<void()> fn);

  // Connections currently open (for stats).
  size_t open_connections() const;
  // New connections that closed an idle one or got 503 at max_connections (for stats).
  size_t capped_connections() const;

  class Impl;

 private:
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace structure::http
