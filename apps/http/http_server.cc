#include "apps/http/http_server.h"

#include "base/json.h"

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

namespace structure::http {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = net::ip::tcp;

class Connection;

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
  void Stop();
  void PollStopped();
  void After(std::chrono::milliseconds delay, std::function<void()> fn);

  void Register(Connection* c, std::weak_ptr<Connection> w) {
    std::lock_guard<std::mutex> lock(mu_);
    conns_.emplace(c, std::move(w));
  }
  void Unregister(Connection* c) {
    std::lock_guard<std::mutex> lock(mu_);
    conns_.erase(c);
  }
  size_t Count() const {
    std::lock_guard<std::mutex> lock(mu_);
    return conns_.size();
  }
  bool stopping() const { return stopping_.load(); }

  const ServerOptions options_;
  const Handler handler_;
  uint16_t port_ = 0;

 private:
  // Declared before ioc_ so they outlive the handlers (and connections) ioc_ destroys.
  mutable std::mutex mu_;
  std::unordered_map<Connection*, std::weak_ptr<Connection>> conns_;
  std::atomic<bool> stopping_{false};

 public:
  net::io_context ioc_;

 private:
  tcp::acceptor acceptor_;
  net::steady_timer grace_timer_;
  std::chrono::steady_clock::time_point stop_deadline_;
};

// One accepted socket: reads requests one after another (keep-alive), hands each to the
// handler and writes the answer, honouring Delivery (reset, paced writes, close).
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(tcp::socket socket, HttpServer::Impl* server)
      : stream_(std::move(socket)), server_(server), pace_timer_(stream_.get_executor()) {}
  ~Connection() { server_->Unregister(this); }

  void Start() {
    server_->Register(this, weak_from_this());
    ReadHeader();
  }

  // Called (via post) when the server stops: idle connections close now, busy ones after
  // their answer.
  void StopGracefully() {
    if (!busy_) {
      Close();
    } else {
      close_after_ = true;
    }
  }

  void Post(std::function<void(Connection&)> fn) {
    net::post(stream_.get_executor(),
              [self = shared_from_this(), fn = std::move(fn)] { fn(*self); });
  }

 private:
  void ReadHeader() {
    if (closed_ || server_->stopping()) return Close();
    parser_.emplace();
    parser_->body_limit(server_->options_.max_body_bytes);
    parser_->header_limit(static_cast<uint32_t>(server_->options_.max_header_bytes));
    stream_.expires_after(server_->options_.idle_timeout);
    bhttp::async_read_header(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->OnHeader(ec); });
  }

  void OnHeader(beast::error_code ec) {
    if (ec) return OnReadError(ec);
    const auto& req = parser_->get();
    auto expect = req.find(bhttp::field::expect);
    if (expect != req.end() && beast::iequals(expect->value(), "100-continue") &&
        !parser_->is_done()) {
      static const std::string kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
      net::async_write(stream_, net::buffer(kContinue),
                       [self = shared_from_this()](beast::error_code wec, size_t) {
                         if (wec) return self->Close();
                         self->ReadBody();
                       });
      return;
    }
    ReadBody();
  }

  void ReadBody() {
    if (parser_->is_done()) return Dispatch();
    bhttp::async_read(stream_, buffer_, *parser_,
                      [self = shared_from_this()](beast::error_code ec, size_t) {
                        if (ec) return self->OnReadError(ec);
                        self->Dispatch();
                      });
  }

  void OnReadError(beast::error_code ec) {
    if (ec == bhttp::error::body_limit) {
      return SendLocal(413, "too_large",
                       "request body too large: the limit is " +
                           std::to_string(server_->options_.max_body_bytes) + " bytes (" + server_->options_.max_body_key + ")");
    }
    if (ec == bhttp::error::header_limit) {
      return SendLocal(431, "too_large",
                       "request header too large: the limit is " +
                           std::to_string(server_->options_.max_header_bytes) + " bytes");
    }
    if (ec.category() == beast::error_code(bhttp::error::end_of_stream).category() &&
        ec != bhttp::error::end_of_stream && ec != bhttp::error::partial_message) {
      return SendLocal(400, "bad_request", "malformed HTTP request");
    }
    Close();
  }

  // The API's error shape (docs/server.md): {"status":"error","code":...,"errors":[...]}.
  void SendLocal(int status, const char* code, const std::string& message) {
    Json body = Json::MakeObject();
    body.set("status", "error");
    body.set("code", code);
    Json errors = Json::MakeArray();
    errors.push_back(message);
    body.set("errors", std::move(errors));
    HttpResponse r = JsonResponse(status, ToJson(body));
    r.delivery.close = true;
    busy_ = true;
    Write(std::move(r), false);
  }

  void Dispatch() {
    auto req = parser_->release();
    HttpRequest request;
    request.method = std::string(req.method_string());
    request.target = std::string(req.target());
    size_t q = request.target.find('?');
    request.path = request.target.substr(0, q);
    if (q != std::string::npos) request.query = request.target.substr(q + 1);
    for (const auto& field : req) {
      request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    }
    request.body = std::move(req.body());
    if (remote_.empty()) {  // once per connection: it does not change
      beast::error_code ec;
      auto ep = stream_.socket().remote_endpoint(ec);
      if (!ec) remote_ = ep.address().to_string() + ":" + std::to_string(ep.port());
    }
    request.remote = remote_;
    bool keep_alive = req.keep_alive();

    busy_ = true;
    stream_.expires_never();
    auto once = std::make_shared<std::atomic<bool>>(false);
    Responder respond = [self = shared_from_this(), once, keep_alive](HttpResponse response) {
      if (once->exchange(true)) return;
      self->Post([keep_alive, response = std::move(response)](Connection& c) mutable {
        c.Write(std::move(response), keep_alive);
      });
    };
    server_->handler_(std::move(request), std::move(respond));
  }

  void Write(HttpResponse response, bool keep_alive) {
    if (closed_) return;
    if (response.delivery.reset) return Reset();
    delivery_ = response.delivery;
    close_after_ = close_after_ || !keep_alive || delivery_.close || server_->stopping();
    out_.clear();
    out_ += "HTTP/1.1 ";
    out_ += std::to_string(response.status);
    out_ += ' ';
    out_ += ReasonPhrase(response.status);
    out_ += "\r\n";
    for (const auto& [name, value] : response.headers) {
      if (HeaderNameEquals(name, "Content-Length") || HeaderNameEquals(name, "Connection")) {
        continue;
      }
      out_ += name;
      out_ += ": ";
      out_ += value;
      out_ += "\r\n";
    }
    out_ += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
    if (close_after_) out_ += "Connection: close\r\n";
    out_ += "\r\n";
    out_ += response.body;
    out_pos_ = 0;
    WriteNext();
  }

  void WriteNext() {
    size_t n = out_.size() - out_pos_;
    if (delivery_.chunk_bytes > 0) n = std::min(n, delivery_.chunk_bytes);
    stream_.expires_after(std::chrono::seconds(60));
    net::async_write(stream_, net::buffer(out_.data() + out_pos_, n),
                     [self = shared_from_this()](beast::error_code ec, size_t written) {
                       self->OnWrite(ec, written);
                     });
  }

  void OnWrite(beast::error_code ec, size_t written) {
    if (ec) return Close();
    out_pos_ += written;
    if (out_pos_ < out_.size()) {
      if (delivery_.chunk_delay.count() <= 0) return WriteNext();
      pace_timer_.expires_after(delivery_.chunk_delay);
      pace_timer_.async_wait([self = shared_from_this()](beast::error_code tec) {
        if (tec) return self->Close();
        self->WriteNext();
      });
      return;
    }
    busy_ = false;
    if (close_after_) return Close();
    ReadHeader();
  }

  void Close() {
    if (closed_) return;
    closed_ = true;
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.close();
    pace_timer_.cancel();
  }

  void Reset() {
    if (closed_) return;
    closed_ = true;
    beast::error_code ec;
    stream_.socket().set_option(net::socket_base::linger(true, 0), ec);
    stream_.close();
    pace_timer_.cancel();
  }

  beast::tcp_stream stream_;
  HttpServer::Impl* server_;
  net::steady_timer pace_timer_;
  beast::flat_buffer buffer_;
  std::string remote_;  // "ADDRESS:PORT" of the peer
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  std::string out_;
  size_t out_pos_ = 0;
  Delivery delivery_;
  bool busy_ = false;
  bool close_after_ = false;
  bool closed_ = false;
};

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
    std::make_shared<Connection>(std::move(s), this)->Start();
    Accept();
  });
}

void HttpServer::Impl::Run() {
  net::post(acceptor_.get_executor(), [this] { Accept(); });
  std::vector<std::thread> helpers;
  for (int i = 1; i < options_.threads; ++i) helpers.emplace_back([this] { ioc_.run(); });
  ioc_.run();
  for (auto& t : helpers) t.join();
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

void HttpServer::Impl::PollStopped() {
  if (Count() == 0 || std::chrono::steady_clock::now() >= stop_deadline_) {
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
size_t HttpServer::open_connections() const { return impl_->Count(); }
void HttpServer::After(std::chrono::milliseconds delay, std::function<void()> fn) {
  impl_->After(delay, std::move(fn));
}

}  // namespace structure::http
