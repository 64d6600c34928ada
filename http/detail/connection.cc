#include "http/detail/connection.h"

#include <array>
#include <cstdio>
#include <limits>

namespace structure::http {

namespace {

// Bytes a lingering close reads and drops at most.
constexpr size_t kMaxDrain = 1 << 20;
// The header of a request on a reserved connection must arrive within this.
constexpr std::chrono::milliseconds kReservedHeaderTimeout{2000};

}  // namespace

Connection::Connection(tcp::socket socket, HttpServer::Impl* server, bool reserved)
    : stream_(std::move(socket)),
      server_(server),
      pace_timer_(stream_.get_executor()),
      reserved_(reserved) {
  if (reserved_) ++server_->reserved_in_use_;
  if (server_->options_.send_buffer_bytes > 0) {
    beast::error_code ec;
    stream_.socket().set_option(
        net::socket_base::send_buffer_size(static_cast<int>(server_->options_.send_buffer_bytes)),
        ec);
  }
}

Connection::~Connection() {
  if (reserved_) --server_->reserved_in_use_;
  server_->Unregister(seq_);
}

void Connection::Start() {
  seq_ = server_->Register(weak_from_this());
  ReadHeader();
}

void Connection::CloseIfIdle() {
  if (!busy_) Close();
}

void Connection::StopGracefully() {
  if (!busy_) {
    Close();
  } else {
    close_after_ = true;
  }
}

void Connection::ReadHeader() {
  if (closed_ || server_->stopping()) return Close();
  parser_.emplace();
  parser_->body_limit(server_->options_.max_body_bytes);
  parser_->header_limit(static_cast<uint32_t>(server_->options_.max_header_bytes));
  head_ = false;
  idle_ = !reserved_;  // a reserved connection is never the one closed to make room
  if (requests_ == 0 || buffer_.size() > 0) return ReadHeaderBytes();
  // Keep-alive: the next request may take idle_timeout to start, then header_timeout.
  stream_.expires_after(server_->options_.idle_timeout);
  stream_.async_read_some(buffer_.prepare(4096),
                          [self = shared_from_this()](beast::error_code ec, size_t n) {
                            if (ec) return self->Close();
                            self->buffer_.commit(n);
                            self->ReadHeaderBytes();
                          });
}

void Connection::ReadHeaderBytes() {
  auto timeout = server_->options_.header_timeout;
  if (reserved_) timeout = std::min<std::chrono::milliseconds>(timeout, kReservedHeaderTimeout);
  stream_.expires_after(timeout);
  bhttp::async_read_header(
      stream_, buffer_, *parser_,
      [self = shared_from_this()](beast::error_code ec, size_t) { self->OnHeader(ec); });
}

void Connection::OnHeader(beast::error_code ec) {
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

void Connection::ReadBody() {
  if (parser_->is_done()) return Dispatch();
  stream_.expires_after(server_->options_.body_timeout);
  bhttp::async_read(stream_, buffer_, *parser_,
                    [self = shared_from_this()](beast::error_code ec, size_t) {
                      if (ec) return self->OnReadError(ec);
                      self->Dispatch();
                    });
}

void Connection::OnReadError(beast::error_code ec) {
  if (ec == bhttp::error::body_limit) {
    return SendLocal(413, "too_large",
                     "request body too large: the limit is " +
                         std::to_string(server_->options_.max_body_bytes) + " bytes (" +
                         server_->options_.max_body_key + ")");
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

void Connection::SendLocal(int status, const char* code, const std::string& message) {
  const auto& local = server_->options_.local_error;
  std::string target = parser_ ? std::string(parser_->get().target()) : std::string();
  HttpResponse r =
      local ? local(target, status, code, message) : ErrorResponse(status, code, message);
  r.delivery.close = true;
  drain_ = status == 413;
  busy_ = true;
  idle_ = false;
  Write(std::move(r), false);
}

HttpRequest ToHttpRequest(bhttp::request<bhttp::string_body>&& req) {
  HttpRequest request;
  request.method = std::string(req.method_string());
  if (req.method() == bhttp::verb::head) {
    request.method = "GET";
    request.head = true;
  }
  request.target = OriginForm(std::string_view(req.target().data(), req.target().size()));
  size_t q = request.target.find('?');
  request.path = request.target.substr(0, q);
  if (q != std::string::npos) request.query = request.target.substr(q + 1);
  for (const auto& field : req) {
    request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  }
  request.body = std::move(req.body());
  return request;
}

void Connection::Dispatch() {
  server_->units_.fetch_add(1, std::memory_order_relaxed);
  server_->open_.fetch_add(1, std::memory_order_relaxed);
  open_since_ = std::chrono::steady_clock::now();
  auto req = parser_->release();
  bool keep_alive = req.keep_alive();
  HttpRequest request = ToHttpRequest(std::move(req));
  if (remote_.empty()) {  // once per connection: it does not change
    beast::error_code ec;
    auto ep = stream_.socket().remote_endpoint(ec);
    if (!ec) remote_ = ep.address().to_string() + ":" + std::to_string(ep.port());
  }
  request.remote = remote_;
  size_t max_requests = server_->options_.max_requests_per_connection;
  if (++requests_ == max_requests) keep_alive = false;
  head_ = request.head;

  busy_ = true;
  idle_ = false;
  stream_.expires_never();
  if (reserved_) {
    if (!server_->IsReserved(request)) {
      HttpResponse r = JsonResponse(503, kTooManyConnectionsBody);
      r.SetHeader("Retry-After", "1");
      r.delivery.close = true;
      return Write(std::move(r), false);
    }
    keep_alive = false;
  }
  auto once = std::make_shared<std::atomic<bool>>(false);
  Responder respond = [self = shared_from_this(), once, keep_alive](HttpResponse response) {
    if (once->exchange(true)) return;
    self->Post([keep_alive, response = std::move(response)](Connection& c) mutable {
      c.Write(std::move(response), keep_alive);
    });
  };
  server_->handler_(std::move(request), std::move(respond));
}

void Connection::Write(HttpResponse response, bool keep_alive) {
  if (open_since_) {
    auto us = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - *open_since_);
    open_since_.reset();
    server_->open_.fetch_sub(1, std::memory_order_relaxed);
    server_->answered_.fetch_add(1, std::memory_order_relaxed);
    server_->answered_us_.fetch_add(static_cast<uint64_t>(us.count()), std::memory_order_relaxed);
  }
  if (closed_) return;
  server_->units_.fetch_add(1, std::memory_order_relaxed);
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
  body_stream_ = std::move(response.stream);
  stream_done_ = false;
  if (body_stream_) {
    out_ += "Transfer-Encoding: chunked\r\n";
  } else {
    out_ += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
  }
  if (close_after_) out_ += "Connection: close\r\n";
  out_ += "\r\n";
  if (!body_stream_) {
    if (!head_) out_ += response.body;  // HEAD: GET's headers, Content-Length included
  } else if (!response.body.empty()) {
    char size[20];
    std::snprintf(size, sizeof(size), "%zx\r\n", response.body.size());
    out_ += size + response.body + "\r\n";
  }
  out_pos_ = 0;
  WriteNext();
}

void Connection::WriteNext() {
  // Each step must make progress within the write timeout: a client that reads nothing is
  // dropped, one that reads slowly is not.
  stream_.expires_after(server_->options_.write_timeout);
  auto done = [self = shared_from_this()](beast::error_code ec, size_t written) {
    self->OnWrite(ec, written);
  };
  if (delivery_.chunk_bytes > 0) {
    size_t n = std::min(out_.size() - out_pos_, delivery_.chunk_bytes);
    return net::async_write(stream_, net::buffer(out_.data() + out_pos_, n), std::move(done));
  }
  stream_.async_write_some(net::buffer(out_.data() + out_pos_, out_.size() - out_pos_),
                           std::move(done));
}

void Connection::OnWrite(beast::error_code ec, size_t written) {
  // A client that took nothing for write_timeout: a reset frees what its socket holds at once
  // (a plain close would keep the unsent answer queued in the kernel).
  if (ec == beast::error::timeout) {
    if (body_stream_) body_stream_->Close();
    return Reset();
  }
  if (ec) return Close();
  if (out_pos_ + written >= out_.size() && body_stream_ && !stream_done_) {
    out_pos_ += written;
    return StreamNext();
  }
  out_pos_ += written;
  if (out_pos_ < out_.size()) {
    if (delivery_.chunk_bytes == 0 || delivery_.chunk_delay.count() <= 0) return WriteNext();
    pace_timer_.expires_after(delivery_.chunk_delay);
    pace_timer_.async_wait([self = shared_from_this()](beast::error_code tec) {
      if (tec) return self->Close();
      self->WriteNext();
    });
    return;
  }
  OnAnswered();
}

void Connection::OnAnswered() {
  busy_ = false;
  body_stream_.reset();
  if (drain_) return Drain();
  if (reserved_) return Close();  // frees the slot for the next probe at once
  if (close_after_) return Linger();
  ReadHeader();
}

void Connection::StreamNext() {
  if (closed_) return;
  if (body_stream_->closed()) return Close();
  bool finished = false;
  std::string piece = body_stream_->Take(&finished);
  if (piece.empty() && !finished) {
    stream_.expires_never();  // waiting on the producer, not on the client
    bool waits = body_stream_->WaitForMore([self = shared_from_this()] {
      self->Post([](Connection& c) {
        if (c.body_stream_ && !c.stream_done_) c.StreamNext();
      });
    });
    if (!waits) StreamNext();
    return;
  }
  out_.clear();
  if (!piece.empty()) {
    char size[20];
    std::snprintf(size, sizeof(size), "%zx\r\n", piece.size());
    out_ += size + piece + "\r\n";
  }
  if (finished) {
    out_ += "0\r\n\r\n";
    stream_done_ = true;
  }
  out_pos_ = 0;
  WriteNext();
}

void Connection::Drain() {
  drain_ = false;
  beast::error_code ec;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  buffer_.clear();
  DrainSome(std::chrono::steady_clock::now() + server_->options_.body_timeout,
            std::numeric_limits<size_t>::max());
}

void Connection::Linger() {
  if (closed_) return;
  if (server_->stopping() || server_->options_.linger.count() <= 0) return Close();
  beast::error_code ec;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  if (ec) return Close();
  idle_ = true;  // may be closed at once to make room
  buffer_.clear();
  DrainSome(std::chrono::steady_clock::now() + server_->options_.linger, kMaxDrain);
}

void Connection::DrainSome(std::chrono::steady_clock::time_point until, size_t max_bytes) {
  if (closed_) return;
  stream_.expires_at(until);
  stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this(), until, max_bytes](
                                                     beast::error_code ec, size_t n) {
    self->drained_ += n;
    if (ec || self->drained_ > max_bytes) return self->Close();
    self->buffer_.clear();
    self->DrainSome(until, max_bytes);
  });
}

void Connection::Close() {
  if (body_stream_) body_stream_->Close();
  if (closed_) return;
  closed_ = true;
  beast::error_code ec;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  stream_.close();
  pace_timer_.cancel();
}

void Connection::Reset() {
  if (closed_) return;
  closed_ = true;
  beast::error_code ec;
  stream_.socket().set_option(net::socket_base::linger(true, 0), ec);
  stream_.close();
  pace_timer_.cancel();
}

}  // namespace structure::http
