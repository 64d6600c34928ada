// The MCP server of `structure mcp`: JSON-RPC 2.0 messages (one per line on stdio), protocol
// revision 2025-06-18. Methods: initialize, notifications/initialized, ping, tools/list,
// tools/call with the tools `structure` (the seed's tool definition) and `list_schemas`.
#pragma once

#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

#include "base/json.h"
#include "engine/engine.h"
#include "server/mcp/mcp_message.h"

namespace structure::mcp {

inline constexpr const char kProtocolVersion[] = "2025-06-18";

// Thread-safe. Answers to tools/call come from engine threads through `write`.
class McpServer {
 public:
  // `write` sends one complete JSON-RPC message (without the newline); it is called under a
  // lock, so it needs no locking of its own.
  McpServer(Engine& engine, McpOptions options, std::function<void(const std::string&)> write);

  // Handles one incoming message. Malformed input gets a JSON-RPC error (-32700 parse error,
  // -32600 invalid request, -32601 unknown method, -32602 bad params); notifications get no
  // answer.
  void HandleMessage(std::string_view text);

  // Answers a line that is no message at all (too long for RunStdio) with a -32700 error.
  void RejectLine(const std::string& why);

  size_t max_line_bytes() const { return options_.max_line_bytes; }

  // Blocks until every tools/call under way has been answered.
  void Drain();

  // The tool definitions of tools/list.
  static Json ToolsJson();

 private:
  void Send(const Json& message);
  void Reply(const Json& id, Json result);
  void ReplyError(const Json& id, int code, const std::string& message);
  void CallStructure(const Json& id, const Json& arguments);
  void CallListSchemas(const Json& id, const Json& arguments);

  Engine& engine_;
  const McpOptions options_;
  std::function<void(const std::string&)> write_;
  std::mutex mu_;
  std::condition_variable idle_;
  int pending_ = 0;  // guarded by mu_
};

// Reads messages line by line from `in` until EOF (a line is the bytes up to '\n', NULs
// included; a trailing '\r' is dropped), answers through the server, then waits for the calls
// under way. Returns the exit code (0).
int RunStdio(McpServer& server, std::FILE* in);

}  // namespace structure::mcp
