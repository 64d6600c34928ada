// Internals of HttpServer shared by its two files: the server state (Impl) and the per-socket
// Connection (detail/connection.h). Not part of the API.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "http/http_server.h"

namespace structure::http {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = net::ip::tcp;

class Connection;

// The parsed request as the handler sees it (method, target split at '?', headers, body).
HttpRequest ToHttpRequest(bhttp::request<bhttp::string_body>&& req);

class HttpServer::Impl {
 public:
  Impl(const ServerOptions& options, Handler handler)
      : options_(options),
        handler_(std::move(handler)),
        ioc_(options.threads),
        acceptor_(net::make_strand(ioc_)),
        grace_timer_(ioc_) {}

  Status Listen();
  void Accept();
  void Run();
  // One event-loop thread: ioc_.run(), or turn by turn with the batch window.
  void Loop();
  void Stop();
  void StopNow();
  void PollStopped();
  void After(std::chrono::milliseconds delay, std::function<void()> fn);

  uint64_t Register(std::weak_ptr<Connection> w) {
    std::lock_guard<std::mutex> lock(mu_);
    conns_.emplace(++next_seq_, std::move(w));
    return next_seq_;
  }
  void Unregister(uint64_t seq) {
    std::lock_guard<std::mutex> lock(mu_);
    conns_.erase(seq);
    if (conns_.size() < options_.max_connections * 9 / 10) cap_logged_ = false;
  }
  size_t Count() const {
    std::lock_guard<std::mutex> lock(mu_);
    return conns_.size();
  }
  // At the connection cap: closes the oldest connection that is not being answered. False
  // when every connection is being answered.
  bool MakeRoom();
  // Answers a connection over the cap with 503 and closes it (reading what the client sent
  // meanwhile for up to options_.linger, so the answer is not lost to a reset).
  void Refuse(tcp::socket socket);
  // Whether a reserved connection may ask for this (options_.reserved_paths, GET or HEAD).
  bool IsReserved(const HttpRequest& request) const;
  bool stopping() const { return stopping_.load(); }

  const ServerOptions options_;
  const Handler handler_;
  uint16_t port_ = 0;
  std::atomic<size_t> capped_{0};
  std::atomic<size_t> reserved_in_use_{0};  // reserved connections open now
  // The batch window's readings (base/batch_window.h): requests read + answers written, the
  // requests read and not yet answered, and the answered ones' count and summed latency.
  std::atomic<size_t> units_{0};
  std::atomic<size_t> open_{0};
  std::atomic<uint64_t> answered_{0};
  std::atomic<uint64_t> answered_us_{0};

 private:
  // Declared before ioc_ so they outlive the handlers (and connections) ioc_ destroys.
  mutable std::mutex mu_;
  std::map<uint64_t, std::weak_ptr<Connection>> conns_;  // by age: oldest first
  uint64_t next_seq_ = 0;
  bool cap_logged_ = false;  // guarded by mu_; logged once until the count drops below 90 %
  std::atomic<bool> stopping_{false};
  std::atomic<bool> stop_now_{false};  // StopNow: the grace is over

 public:
  net::io_context ioc_;

 private:
  tcp::acceptor acceptor_;
  net::steady_timer grace_timer_;
  std::chrono::steady_clock::time_point stop_deadline_;
};

}  // namespace structure::http
