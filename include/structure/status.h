// Status and Result<T>: how every call of the library, and every layer inside it, reports
// failure. No exception crosses the API. A Status is a Code, which says whether retrying can
// help, and a message for people, which says what was wrong and where ("config.toml:12:3:
// expected '='"); programs branch on the code, never on the message. A request's own failure is
// a StructureResult with an ErrorCode (structure/result.h), not a Status.
//
// Thread-safety: Status and Result are values; distinct objects may be used from distinct
// threads at once.
#pragma once

#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace structure {

enum class Code : int {
  kOk = 0,
  kInvalidArgument,     // bad input or config; never retry
  kNotFound,            // unknown schema name, file, alias
  kUnauthenticated,     // HTTP 401; never retry
  kPermissionDenied,    // HTTP 403; never retry
  kResourceExhausted,   // HTTP 429 or a local limit; retry after backoff
  kUnavailable,         // HTTP 5xx, connect failure, reset; retry after backoff
  kDeadlineExceeded,    // deadline hit; retry only if the caller has time left
  kSchemaViolation,     // model output failed validation; re-ask the model
  kCancelled,           // cancelled by the caller
  kFailedPrecondition,  // the request cannot succeed as sent (refusal, safety block, truncation)
  kSchemaTooLarge,      // the provider refused the schema as too large or complex to compile;
                        // the same schema in smaller parts may pass (never retry as it is)
  kQuotaExhausted,      // the provider account's quota or credit is spent; never retry
  kContextTooLong,      // the provider refused the request as longer than the model's context
                        // window; the input in smaller parts may pass (never retry as it is)
  kInternal,            // a bug
};

// Stable lower-case name of a code, e.g. "invalid_argument".
std::string_view CodeName(Code code);

// True for codes where the same request may succeed later (429, 5xx, timeouts).
bool IsRetryable(Code code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  bool retryable() const { return IsRetryable(code_); }

  // "invalid_argument: what went wrong", or "ok".
  std::string ToString() const;

  bool operator==(const Status& other) const = default;

 private:
  Code code_ = Code::kOk;
  std::string message_;
};

inline Status InvalidArgument(std::string m) {
  return Status(Code::kInvalidArgument, std::move(m));
}
inline Status NotFound(std::string m) { return Status(Code::kNotFound, std::move(m)); }
inline Status Internal(std::string m) { return Status(Code::kInternal, std::move(m)); }
inline Status Unavailable(std::string m) { return Status(Code::kUnavailable, std::move(m)); }

// A value of type T or a non-ok Status. Kept small so that a later move to
// std::expected<T, Status> is mechanical.
//
// Contract: a Result made from a Status holds an error; making one from an ok Status is a bug
// (asserted in debug builds). Check ok() before value(), operator* or operator->: on an error
// they throw std::bad_variant_access. status() of a value is the ok Status.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT: implicit on purpose
  Result(Status status) : v_(std::move(status)) {  // NOLINT: implicit on purpose
    assert(!std::get<Status>(v_).ok() && "Result made from an ok Status");
  }
  Result(Code code, std::string m) : v_(Status(code, std::move(m))) {}

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace structure

#define STRUCTURE_RETURN_IF_ERROR(expr) \
  do {                                  \
    ::structure::Status _st = (expr);   \
    if (!_st.ok()) return _st;          \
  } while (0)
