// What each result ErrorCode means on every surface: one row per code, in one table
// (error_codes.cc). The HTTP API, `structure run`'s exit status, the MCP tool, the metrics and an
// OpenAI-compatible endpoint read the row; none of them matches a code by its text.
#pragma once

#include <string_view>

#include "structure/error_code.h"

namespace structure {

// How the MCP tool reports a result with this code. kToolError: a tool result with isError set
// and the text "error <name>: <message>", which the model reads and may act on (MCP keeps
// JSON-RPC errors for protocol faults: an unknown method or tool, arguments that are not an
// object).
enum class McpErrorForm { kToolError };

struct ErrorCodeFacts {
  ErrorCode code;
  std::string_view name;  // the wire name, ErrorCodeName(code)
  int http_status;        // POST /v1/structure's status for a result with this code
  int exit_code;          // `structure run`'s exit status
  McpErrorForm mcp;
  // The error object an OpenAI-compatible endpoint answers with: {"error": {"type", "code"}}.
  // The types are those OpenAI documents (invalid_request_error, rate_limit_error, server_error,
  // service_unavailable_error); clients branch on the HTTP status, then on these.
  std::string_view openai_type;
  std::string_view openai_code;
};

// The row of `code`; nullptr for a code without one (kCount; a test checks that every code has
// a row).
const ErrorCodeFacts* FindErrorCodeFacts(ErrorCode code);

// The row of `code`; the kInternal row for a code without one.
const ErrorCodeFacts& ErrorCodeFactsOf(ErrorCode code);

}  // namespace structure
