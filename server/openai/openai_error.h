// Errors of the OpenAI-compatible endpoint in OpenAI's shape,
// {"error": {"message", "type", "param", "code"}}, which the official SDKs turn into their
// typed errors (BadRequestError, RateLimitError, ...) and retry by HTTP status (429, 5xx).
// Pure: no engine, no sockets.
#pragma once

#include <string>

#include "base/json.h"
#include "http/http_message.h"
#include "pipeline/result.h"

namespace structure::server::openai {

struct ApiError {
  int status = 400;
  std::string type = "invalid_request_error";
  std::string code;   // "" is sent as null
  std::string param;  // the request field at fault ("messages[1].content[0]"); "" = null
  std::string message;
  int retry_after_s = 0;  // > 0: a Retry-After header
};

// A 400 invalid_request_error naming `param`; the message starts with the field's name.
ApiError BadField(const std::string& param, const std::string& what,
                  const std::string& code = "invalid_value");

// "a string", "an integer", "an object", ... for messages about a wrong type.
std::string TypeName(const Json& value);

// A 400 invalid_type naming `param`: "param: expected EXPECTED, got an integer".
ApiError WrongType(const std::string& param, const std::string& expected, const Json& value);

// {"error": {...}} as JSON text.
std::string ErrorJson(const ApiError& error);

// The HTTP response for `error` (Retry-After when set).
http::HttpResponse ErrorResponse(const ApiError& error);

// The error for a result that did not end ok: its error code's status and OpenAI type/code
// (provider_rate_limited is 429 rate_limit_exceeded with Retry-After, provider faults 5xx),
// stale a 422 "structure_stale" holding the validator's last messages, need-more-input (when the
// caller asked for it as an error) a 422 "structure_need_more_input". bad_schema names
// `schema_param`, the field that held the schema.
ApiError ErrorForResult(const pipeline::StructureResult& result, const std::string& schema_param);

// The OpenAI form of an error the HTTP layer answers itself (body over the limit, header too
// large, malformed HTTP), for the routes of this endpoint.
http::HttpResponse LocalError(int status, const std::string& code, const std::string& message);

}  // namespace structure::server::openai
