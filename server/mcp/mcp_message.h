// The pure half of `structure mcp`: one JSON-RPC line taken apart, and the `structure` tool's
// arguments turned into a request. No engine and no I/O, so the fuzzer and the tests run it
// directly; McpServer (mcp_server.h) answers what these return.
#pragma once

#include <string>
#include <string_view>

#include "base/json.h"
#include "base/status.h"
#include "pipeline/request.h"
#include "registry/registered_schema.h"

namespace structure::mcp {

inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;

struct McpOptions {
  registry::Scope scope;  // tenant/project of every call (a local, trusted client)
  std::string server_version = "0";
  size_t max_prompt_bytes = 1 << 20;
  size_t max_schema_bytes = 1 << 20;
  // One line (one message) at most; longer ones get a parse error and are skipped. Room for a
  // prompt and a schema at their limits with JSON escapes.
  size_t max_line_bytes = 8 << 20;
};

// One incoming line: a request to answer, a notification (or client response) to ignore, or
// a JSON-RPC error to send back.
struct RpcLine {
  enum class Kind { kRequest, kIgnore, kError };
  Kind kind = Kind::kIgnore;
  Json id;              // kRequest, kError (null when the id is unknown or unusable)
  std::string method;   // kRequest
  Json params;          // kRequest: the params member, or null
  int code = 0;         // kError
  std::string message;  // kError
};

RpcLine ParseRpcLine(std::string_view text);

// The `structure` tool's arguments (prompt, schema, schemaMode, maxLoops) as a request in the
// server's scope; errors are the text of a tool error.
Result<pipeline::StructureRequest> StructureToolRequest(const Json& arguments,
                                                        const McpOptions& options);

}  // namespace structure::mcp
