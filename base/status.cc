#include "structure/status.h"

namespace structure {

std::string_view CodeName(Code code) {
  switch (code) {
    case Code::kOk:
      return "ok";
    case Code::kInvalidArgument:
      return "invalid_argument";
    case Code::kNotFound:
      return "not_found";
    case Code::kUnauthenticated:
      return "unauthenticated";
    case Code::kPermissionDenied:
      return "permission_denied";
    case Code::kResourceExhausted:
      return "resource_exhausted";
    case Code::kUnavailable:
      return "unavailable";
    case Code::kDeadlineExceeded:
      return "deadline_exceeded";
    case Code::kSchemaViolation:
      return "schema_violation";
    case Code::kCancelled:
      return "cancelled";
    case Code::kFailedPrecondition:
      return "failed_precondition";
    case Code::kSchemaTooLarge:
      return "schema_too_large";
    case Code::kQuotaExhausted:
      return "quota_exhausted";
    case Code::kContextTooLong:
      return "context_too_long";
    case Code::kInternal:
      return "internal";
  }
  return "unknown";
}

bool IsRetryable(Code code) {
  return code == Code::kResourceExhausted || code == Code::kUnavailable ||
         code == Code::kDeadlineExceeded;
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  std::string s(CodeName(code_));
  s += ": ";
  s += message_;
  return s;
}

}  // namespace structure
