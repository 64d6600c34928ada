// `structure sim --record-requests FILE`: a test-only record of the provider requests the
// simulator received, one JSON line each ({"path": ..., "body": "<the body text>"}), so a
// round-trip test can check what a client actually sent (system prompt, schema, tools).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "http/http_message.h"
#include "structure/status.h"

namespace structure::sim {

class RequestLog {
 public:
  // Opens `path` for appending by the rules of base/output_file.h (a link's target, a device
  // or FIFO in place, never replaced); kInvalidArgument naming the file when it cannot be.
  static Result<std::shared_ptr<RequestLog>> Open(const std::string& path);
  ~RequestLog();
  RequestLog(const RequestLog&) = delete;
  RequestLog& operator=(const RequestLog&) = delete;

  // Appends one line with one write. Thread-safe. After a failed write (disk full) nothing more
  // is written, so the log never holds a line after a torn one; the failure is said once on
  // stderr.
  void Append(const http::HttpRequest& request);

  // The first write error, ok when none.
  Status status() const;

  // The simulator is stopping: a write that a FIFO's reader is not taking ends now (the FIFO is
  // written non-blocking), so a stalled reader never holds the simulator's threads.
  void Stop() { stopping_ = true; }

 private:
  RequestLog(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  mutable std::mutex mu_;
  int fd_;
  std::string path_;
  Status failed_;
  std::atomic<bool> stopping_{false};
};

}  // namespace structure::sim
