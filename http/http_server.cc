#include "http/http_server.h"

#include <thread>
#include <vector>

#include "base/batch_window.h"
#include "http/detail/connection.h"
#include "http/detail/server_impl.h"

namespace structure::http {

Status HttpServer::Impl::Listen() {
  beast::error_code ec;
  auto address = net::ip::make_address(options_.host, ec);
  if (ec) return InvalidArgument("bad listen address '" + options_.host + "': " + ec.message());
  tcp::endpoint endpoint(address, options_.port);
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(options_.backlog, ec);
  if (ec) {
    return Unavailable("cannot listen on " + options_.host + ":" + std::to_string(options_.port) +
                       ": " + ec.message());
  }
  port_ = acceptor_.local_endpoint(ec).port();
  return Status::Ok();
}

void HttpServer::Impl::Accept() {
  acceptor_.async_accept(net::make_strand(ioc_), [this](beast::error_code ec, tcp::socket s) {
    if (ec == net::error::operation_aborted || stopping_) return;
    if (ec) {
      // Out of descriptors (EMFILE) or a transient error: back off instead of spinning.
      auto timer = std::make_shared<net::steady_timer>(ioc_, std::chrono::milliseconds(50));
      timer->async_wait([this, timer](beast::error_code) { Accept(); });
      return;
    }
    beast::error_code opt_ec;
    s.set_option(tcp::no_delay(true), opt_ec);
    if (options_.max_connections > 0 && Count() >= options_.max_connections && !MakeRoom()) {
      if (!options_.reserved_paths.empty() &&
          reserved_in_use_.load() < options_.reserved_connections) {
        std::make_shared<Connection>(std::move(s), this, /*reserved=*/true)->Start();
      } else {
        Refuse(std::move(s));
      }
    } else {
      std::make_shared<Connection>(std::move(s), this)->Start();
    }
    Accept();
  });
}

bool HttpServer::Impl::MakeRoom() {
  ++capped_;
  std::shared_ptr<Connection> victim;
  // Locked connections are released after the lock: the last reference may run ~Connection,
  // which takes mu_.
  std::vector<std::shared_ptr<Connection>> seen;
  bool log = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [seq, weak] : conns_) {
      auto c = weak.lock();
      if (!c) continue;
      if (c->TakeForEviction()) {
        victim = std::move(c);
        break;
      }
      seen.push_back(std::move(c));
    }
    log = !cap_logged_;
    cap_logged_ = true;
  }
  if (log && options_.log) {
    options_.log("connection limit " + std::to_string(options_.max_connections) +
                 " reached: a new connection closes the oldest idle one (503 when none is idle)");
  }
  if (!victim) return false;
  victim->Post([](Connection& c) { c.CloseIfIdle(); });
  return true;
}

namespace {

// A refused socket after its 503: reads and drops what the client sends until it closes, the
// linger time passes or 64 KiB were dropped.
struct Refused : std::enable_shared_from_this<Refused> {
  Refused(tcp::socket s, std::chrono::milliseconds linger)
      : socket(std::move(s)), timer(socket.get_executor()) {
    timer.expires_after(linger);
  }
  void Drain() {
    socket.async_read_some(net::buffer(scratch),
                           [self = shared_from_this()](beast::error_code ec, size_t n) {
                             self->dropped += n;
                             if (ec || self->dropped > 64 * 1024) return self->Close();
                             self->Drain();
                           });
  }
  void Close() {
    beast::error_code ec;
    timer.cancel();
    socket.close(ec);
  }
  tcp::socket socket;
  net::steady_timer timer;
  char scratch[4096];
  size_t dropped = 0;
};

}  // namespace

void HttpServer::Impl::Refuse(tcp::socket socket) {
  static const std::string kBody = kTooManyConnectionsBody;
  static const std::string kAnswer =
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
      "Connection: close\r\nContent-Length: " +
      std::to_string(kBody.size()) + "\r\n\r\n" + kBody;
  auto r = std::make_shared<Refused>(std::move(socket), options_.linger);
  // Small enough for the socket's send buffer: the write completes without waiting on the peer.
  net::async_write(r->socket, net::buffer(kAnswer), [r](beast::error_code ec, size_t) {
    if (!ec) r->socket.shutdown(tcp::socket::shutdown_send, ec);
    if (ec) return r->Close();
    r->timer.async_wait([r](beast::error_code tec) {
      if (!tec) r->Close();
    });
    r->Drain();
  });
}

bool HttpServer::Impl::IsReserved(const HttpRequest& request) const {
  if (request.method != "GET") return false;  // HEAD arrives as GET
  for (const std::string& path : options_.reserved_paths) {
    if (request.path == path) return true;
  }
  return false;
}

void HttpServer::Impl::Run() {
  net::post(acceptor_.get_executor(), [this] { Accept(); });
  std::vector<std::thread> helpers;
  for (int i = 1; i < options_.threads; ++i) helpers.emplace_back([this] { Loop(); });
  Loop();
  for (auto& t : helpers) t.join();
}

void HttpServer::Impl::Loop() {
  if (options_.batch_window.count() <= 0) {
    ioc_.run();
    return;
  }
  BatchWindow window(options_.batch_window);
  uint64_t answered = answered_.load(std::memory_order_relaxed);
  uint64_t answered_us = answered_us_.load(std::memory_order_relaxed);
  while (!ioc_.stopped()) {
    size_t before = units_.load(std::memory_order_relaxed);
    if (ioc_.run_one() == 0) break;
    ioc_.poll();
    uint64_t n = answered_.load(std::memory_order_relaxed);
    uint64_t us = answered_us_.load(std::memory_order_relaxed);
    if (n > answered)
      window.Observe(std::chrono::microseconds((us - answered_us) / (n - answered)));
    answered = n;
    answered_us = us;
    window.AfterTurn(units_.load(std::memory_order_relaxed) - before,
                     open_.load(std::memory_order_relaxed));
  }
}

void HttpServer::Impl::Stop() {
  net::post(acceptor_.get_executor(), [this] {
    if (stopping_.exchange(true)) return;
    beast::error_code ec;
    acceptor_.close(ec);
    std::vector<std::shared_ptr<Connection>> live;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& [ptr, weak] : conns_) {
        if (auto c = weak.lock()) live.push_back(std::move(c));
      }
    }
    for (auto& c : live) c->Post([](Connection& conn) { conn.StopGracefully(); });
    stop_deadline_ = std::chrono::steady_clock::now() + options_.stop_grace;
    PollStopped();
  });
}

void HttpServer::Impl::StopNow() {
  stop_now_.store(true);
  Stop();
}

void HttpServer::Impl::PollStopped() {
  if (Count() == 0 || stop_now_.load() || std::chrono::steady_clock::now() >= stop_deadline_) {
    ioc_.stop();
    return;
  }
  grace_timer_.expires_after(std::chrono::milliseconds(10));
  grace_timer_.async_wait([this](beast::error_code) { PollStopped(); });
}

void HttpServer::Impl::After(std::chrono::milliseconds delay, std::function<void()> fn) {
  auto timer = std::make_shared<net::steady_timer>(ioc_, delay);
  timer->async_wait([timer, fn = std::move(fn)](beast::error_code ec) {
    if (!ec) fn();
  });
}

Result<std::unique_ptr<HttpServer>> HttpServer::Create(const ServerOptions& options,
                                                       Handler handler) {
  if (!handler) return InvalidArgument("HttpServer needs a handler");
  if (options.threads < 1) return InvalidArgument("HttpServer needs at least one thread");
  auto impl = std::make_unique<Impl>(options, std::move(handler));
  STRUCTURE_RETURN_IF_ERROR(impl->Listen());
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HttpServer::~HttpServer() = default;
uint16_t HttpServer::port() const { return impl_->port_; }
void HttpServer::Run() { impl_->Run(); }
void HttpServer::Stop() { impl_->Stop(); }
void HttpServer::StopNow() { impl_->StopNow(); }
size_t HttpServer::open_connections() const { return impl_->Count(); }
size_t HttpServer::capped_connections() const { return impl_->capped_.load(); }
void HttpServer::After(std::chrono::milliseconds delay, std::function<void()> fn) {
  impl_->After(delay, std::move(fn));
}

}  // namespace structure::http
