// `structure sim --record-requests FILE`: a test-only record of the provider requests the
// simulator received, one JSON line each ({"path": ..., "body": "<the body text>"}), so a
// round-trip test can check what a client actually sent (system prompt, schema, tools).
#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "base/status.h"
#include "http/http_message.h"

namespace structure::sim {

class RequestLog {
 public:
  // Opens `path` for appending; kInvalidArgument naming the file when it cannot be.
  static Result<std::shared_ptr<RequestLog>> Open(const std::string& path);
  ~RequestLog();
  RequestLog(const RequestLog&) = delete;
  RequestLog& operator=(const RequestLog&) = delete;

  // Appends one line and flushes it. Thread-safe.
  void Append(const http::HttpRequest& request);

 private:
  explicit RequestLog(std::FILE* file) : file_(file) {}
  std::mutex mu_;
  std::FILE* file_;
};

}  // namespace structure::sim
