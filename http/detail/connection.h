// One accepted socket of HttpServer (internal): reads requests one after another
// (keep-alive) under the read deadlines, hands each to the handler and writes the answer.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "http/detail/server_impl.h"

namespace structure::http {

// One accepted socket: reads requests one after another (keep-alive), hands each to the
// handler and writes the answer, honouring Delivery (reset, paced writes, close).
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(tcp::socket socket, HttpServer::Impl* server)
      : stream_(std::move(socket)), server_(server), pace_timer_(stream_.get_executor()) {}
  ~Connection() { server_->Unregister(seq_); }

  void Start();

  // True (once) when the connection is not being answered, so it may be closed for a new one.
  // Any thread; the close itself runs on the connection's strand through CloseIfIdle.
  bool TakeForEviction() { return idle_.exchange(false); }
  void CloseIfIdle();

  // Called (via post) when the server stops: idle connections close now, busy ones after
  // their answer.
  void StopGracefully();
  void Post(std::function<void(Connection&)> fn) {
    net::post(stream_.get_executor(),
              [self = shared_from_this(), fn = std::move(fn)] { fn(*self); });
  }

 private:
  void ReadHeader();
  void ReadHeaderBytes();
  void OnHeader(beast::error_code ec);
  void ReadBody();
  void OnReadError(beast::error_code ec);
  void SendLocal(int status, const char* code, const std::string& message);
  void Dispatch();
  void Write(HttpResponse response, bool keep_alive);
  void WriteNext();
  void OnWrite(beast::error_code ec, size_t written);
  void Close();
  void Reset();

  beast::tcp_stream stream_;
  HttpServer::Impl* server_;
  net::steady_timer pace_timer_;
  beast::flat_buffer buffer_;
  std::string remote_;  // "ADDRESS:PORT" of the peer
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  std::string out_;
  size_t out_pos_ = 0;
  Delivery delivery_;
  uint64_t seq_ = 0;
  size_t requests_ = 0;            // requests read on this connection
  std::atomic<bool> idle_{false};  // not being answered: may be closed at the cap
  bool busy_ = false;
  bool close_after_ = false;
  bool closed_ = false;
};

}  // namespace structure::http
