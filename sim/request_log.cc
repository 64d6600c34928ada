#include "sim/request_log.h"

#include <unistd.h>

#include <cstdio>

#include "base/json.h"
#include "base/output_file.h"

namespace structure::sim {

Result<std::shared_ptr<RequestLog>> RequestLog::Open(const std::string& path) {
  if (path.empty())
    return InvalidArgument("--record-requests: the file name is empty: give a file");
  auto target = ResolveOutput(path);
  if (!target.ok()) return InvalidArgument("--record-requests " + target.status().message());
  auto fd = OpenForAppend(*target);
  if (!fd.ok()) return InvalidArgument("--record-requests " + fd.status().message());
  if (target->kind == OutputKind::kFifo) SetNonBlocking(*fd);  // our own open: our own flags
  return std::shared_ptr<RequestLog>(new RequestLog(*fd, path));
}

RequestLog::~RequestLog() { ::close(fd_); }

void RequestLog::Append(const http::HttpRequest& request) {
  Json line = Json::MakeObject();
  line.set("path", request.path);
  line.set("body", request.body);
  std::string text = ToJson(line) + "\n";
  std::lock_guard<std::mutex> lock(mu_);
  if (!failed_.ok()) return;
  failed_ = WriteAll(fd_, text, path_, nullptr, [this] { return stopping_.load(); });
  if (!failed_.ok()) {
    std::fprintf(stderr, "structure sim: --record-requests: %s; no more requests are recorded\n",
                 failed_.message().c_str());
  }
}

Status RequestLog::status() const {
  std::lock_guard<std::mutex> lock(mu_);
  return failed_;
}

}  // namespace structure::sim
