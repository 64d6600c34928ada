// One accepted socket of HttpServer (internal): reads requests one after another
// (keep-alive) under the read deadlines, hands each to the handler and writes the answer.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "http/body_stream.h"
#include "http/detail/server_impl.h"

namespace structure::http {

// The body of a 503 at the connection cap. Written before (or without) looking at the route,
// so one body serves both APIs: the engine's error fields and OpenAI's "error" object (the
// OpenAI SDKs then retry it after Retry-After instead of waiting for their timeout).
inline constexpr char kTooManyConnectionsBody[] =
    R"({"status":"error","code":"too_many_connections","errors":["the server is at its )"
    R"(connection limit; retry later"],"error":{"message":"the server is at its connection )"
    R"(limit; retry later","type":"server_error","param":null,"code":"too_many_connections"}})";

// One accepted socket: reads requests one after another (keep-alive), hands each to the
// handler and writes the answer, honouring Delivery (reset, paced writes, close).
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // `reserved`: a connection over the cap, kept for one request to a reserved path.
  Connection(tcp::socket socket, HttpServer::Impl* server, bool reserved = false);
  ~Connection();

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
  void OnAnswered();
  // A streamed body: writes what is queued as a chunk, the last chunk once finished, or waits.
  void StreamNext();
  // After a local 413: the rest of the body is read and dropped until the client stops sending
  // (or body_timeout), so it reads the answer instead of a reset.
  void Drain();
  // Ends the connection after an answer: no more is sent, what the client still sends is
  // dropped for up to options.linger, then the socket closes (a close with unread data would
  // reset the connection and destroy answers the client has not read).
  void Linger();
  // Reads and drops what the client sends until `until` or past `max_bytes`, then closes.
  void DrainSome(std::chrono::steady_clock::time_point until, size_t max_bytes);
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
  std::shared_ptr<BodyStream> body_stream_;  // the answer being streamed, if any
  bool stream_done_ = false;                 // its last chunk is being written
  bool drain_ = false;                       // drop the unread body before closing
  uint64_t seq_ = 0;
  size_t requests_ = 0;            // requests read on this connection
  std::atomic<bool> idle_{false};  // not being answered: may be closed at the cap
  const bool reserved_;            // over the cap: one request to a reserved path
  bool head_ = false;              // the request being answered was HEAD: no body
  size_t drained_ = 0;             // bytes dropped by DrainSome
  bool busy_ = false;
  // A request read and not yet answered, since when (the server's open count and latency).
  std::optional<std::chrono::steady_clock::time_point> open_since_;
  bool close_after_ = false;
  bool closed_ = false;
};

}  // namespace structure::http
