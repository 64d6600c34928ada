#include "server/openai/openai_error.h"

#include "base/error_codes.h"
#include "base/json.h"
#include "server/api.h"

namespace structure::server::openai {
namespace {

Json NullOr(const std::string& s) { return s.empty() ? Json() : Json(s); }

// "the schema has 2 problems: a; b" from the validator's messages.
std::string Joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) {
    if (!out.empty()) out += "; ";
    out += line;
  }
  return out;
}

// The OpenAI error type and code of a result's error code (the error-code table's).
void SetKind(ApiError& e, ErrorCode error_code) {
  const ErrorCodeFacts& facts = ErrorCodeFactsOf(error_code);
  e.type = std::string(facts.openai_type);
  e.code = std::string(facts.openai_code);
}

}  // namespace

std::string TypeName(const Json& value) {
  switch (value.type()) {
    case Json::Type::kNull:
      return "null";
    case Json::Type::kBool:
      return "a boolean";
    case Json::Type::kInt:
      return "an integer";
    case Json::Type::kDouble:
      return "a number";
    case Json::Type::kString:
      return "a string";
    case Json::Type::kArray:
      return "an array";
    case Json::Type::kObject:
      return "an object";
  }
  return "a value";
}

ApiError WrongType(const std::string& param, const std::string& expected, const Json& value) {
  return BadField(param, "expected " + expected + ", got " + TypeName(value), "invalid_type");
}

ApiError BadField(const std::string& param, const std::string& what, const std::string& code) {
  ApiError e;
  e.param = param;
  e.code = code;
  e.message = param + ": " + what;
  return e;
}

std::string ErrorJson(const ApiError& error) {
  Json inner = Json::MakeObject();
  inner.set("message", error.message);
  inner.set("type", error.type);
  inner.set("param", NullOr(error.param));
  inner.set("code", NullOr(error.code));
  Json outer = Json::MakeObject();
  outer.set("error", std::move(inner));
  return ToJson(outer);
}

http::HttpResponse ErrorResponse(const ApiError& error) {
  http::HttpResponse r = http::JsonResponse(error.status, ErrorJson(error));
  if (error.retry_after_s > 0) r.SetHeader("Retry-After", std::to_string(error.retry_after_s));
  return r;
}

ApiError ErrorForResult(const pipeline::StructureResult& result, const std::string& schema_param) {
  ApiError e;
  switch (result.status) {
    case pipeline::Outcome::kStale:
      e.status = 422;
      e.code = "structure_stale";
      e.message = "no answer passed the schema within maxLoops (" +
                  std::to_string(result.iterations) +
                  " calls); last problems: " + Joined(result.errors);
      return e;
    case pipeline::Outcome::kNeedMoreInput:
      e.status = 422;
      e.code = "structure_need_more_input";
      e.message = "the input lacks what the schema needs: " + result.need;
      return e;
    case pipeline::Outcome::kOk:
      e.status = 500;
      e.type = "server_error";
      e.code = "internal";
      e.message = "an ok result is not an error";
      return e;
    case pipeline::Outcome::kError:
      break;
  }
  e.status = HttpStatusForResult(result);
  SetKind(e, result.error_code);
  e.message = Joined(result.errors);
  if (result.error_code == ErrorCode::kBadSchema) e.param = schema_param;
  if (e.status == 429) e.retry_after_s = 1;
  return e;
}

http::HttpResponse LocalError(int status, const std::string& code, const std::string& message) {
  ApiError e;
  e.status = status;
  e.type = status >= 500 ? "server_error" : "invalid_request_error";
  e.code = code;
  e.message = message;
  http::HttpResponse r = ErrorResponse(e);
  if (status == 503) r.SetHeader("Retry-After", "1");
  return r;
}

}  // namespace structure::server::openai
