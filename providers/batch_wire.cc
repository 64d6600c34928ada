#include "providers/batch_wire.h"

#include "providers/wire.h"

namespace structure::providers {

std::string_view BatchStateName(BatchState state) {
  switch (state) {
    case BatchState::kRunning:
      return "running";
    case BatchState::kEnded:
      return "ended";
    case BatchState::kFailed:
      return "failed";
    case BatchState::kExpired:
      return "expired";
    case BatchState::kCancelled:
      return "cancelled";
  }
  return "running";
}

ItemResult UnansweredItem(const BatchInfo& info, std::string_view provider) {
  ItemResult r;
  std::string who = std::string(provider) + " batch " + info.id;
  switch (info.state) {
    case BatchState::kExpired:
      r.code = ErrorCode::kBatchExpired;
      r.transient = true;
      r.reply = Status(Code::kUnavailable, who + " expired before this request ran");
      break;
    case BatchState::kCancelled:
      r.code = ErrorCode::kBatchCancelled;
      r.reply = Status(Code::kCancelled, who + " was cancelled before this request ran");
      break;
    case BatchState::kFailed:
      r.code = ErrorCode::kBatchFailed;
      r.reply = Status(Code::kInvalidArgument,
                       who + " failed" + (info.error.empty() ? "" : ": " + info.error));
      break;
    case BatchState::kEnded:
    case BatchState::kRunning:
      r.code = ErrorCode::kBatchMissing;
      r.transient = true;
      r.reply = Status(Code::kUnavailable, who + " returned no result for this request");
      break;
  }
  return r;
}

ItemResult ItemFromHttp(ProviderKind kind, int status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.body = std::move(body);
  ItemResult r;
  r.reply = ParseReply(kind, response);
  r.transient = !r.reply.ok() && r.reply.status().retryable();
  return r;
}

Status ForEachLine(std::string_view text,
                   const std::function<Status(uint64_t line_no, std::string_view line)>& fn) {
  size_t pos = 0;
  uint64_t line_no = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    ++line_no;
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    STRUCTURE_RETURN_IF_ERROR(fn(line_no, line));
  }
  return Status::Ok();
}

std::string MultipartBody(std::string_view boundary,
                          const std::vector<std::pair<std::string, std::string>>& fields,
                          std::string_view file_field, std::string_view file_name,
                          std::string_view file_type, std::string_view file_content) {
  std::string out;
  out.reserve(file_content.size() + 256 * (fields.size() + 1));
  for (const auto& [name, value] : fields) {
    out += "--";
    out += boundary;
    out += "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n";
    out += value;
    out += "\r\n";
  }
  out += "--";
  out += boundary;
  out += "\r\nContent-Disposition: form-data; name=\"";
  out += file_field;
  out += "\"; filename=\"";
  out += file_name;
  out += "\"\r\nContent-Type: ";
  out += file_type;
  out += "\r\n\r\n";
  out += file_content;
  out += "\r\n--";
  out += boundary;
  out += "--\r\n";
  return out;
}

}  // namespace structure::providers
