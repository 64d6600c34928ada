// BodyStream: the body of an HTTP response sent while it is produced (Transfer-Encoding:
// chunked), for server-sent events. The handler answers with an HttpResponse whose `stream` is
// the stream, keeps it, and calls Send and Finish from any thread. The connection writes each
// piece as a chunk under the server's write timeout; a client that stops reading or goes away
// closes the stream, and Send says so, so a producer never writes into the void for long.
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <string>

namespace structure::http {

class BodyStream {
 public:
  // Pieces queued but not yet written past `max_pending` bytes close the stream (a client that
  // does not read).
  explicit BodyStream(size_t max_pending = 4 * 1024 * 1024) : max_pending_(max_pending) {}

  // Queues `piece` for the client. False, and nothing queued, once the stream is closed or
  // finished: stop producing.
  bool Send(std::string piece);
  // No more pieces: the response ends after those queued.
  void Finish();
  // The client went away, a write missed the write timeout, or too much was queued.
  bool closed() const;

  // For the connection (internal): takes what is queued; `*finished` says Finish was called.
  std::string Take(bool* finished);
  // For the connection: runs `wake` (once) when something is queued or Finish is called while
  // nothing is; returns false and does not keep it when there is something already.
  bool WaitForMore(std::function<void()> wake);
  void Close();

 private:
  mutable std::mutex mu_;
  std::string pending_;
  size_t max_pending_;
  bool finished_ = false;
  bool closed_ = false;
  std::function<void()> wake_;
};

}  // namespace structure::http
