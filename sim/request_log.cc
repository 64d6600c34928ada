#include "sim/request_log.h"

#include <cerrno>
#include <cstring>

#include "base/json.h"

namespace structure::sim {

Result<std::shared_ptr<RequestLog>> RequestLog::Open(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (f == nullptr) {
    return InvalidArgument("--record-requests " + path +
                           ": cannot open it for writing: " + std::strerror(errno));
  }
  return std::shared_ptr<RequestLog>(new RequestLog(f));
}

RequestLog::~RequestLog() { std::fclose(file_); }

void RequestLog::Append(const http::HttpRequest& request) {
  Json line = Json::MakeObject();
  line.set("path", request.path);
  line.set("body", request.body);
  std::string text = ToJson(line) + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  std::fwrite(text.data(), 1, text.size(), file_);
  std::fflush(file_);
}

}  // namespace structure::sim
