// libFuzzer target: `structure mcp` input (server/mcp/mcp_message.cc): the input is split into
// lines as RunStdio does; each is taken apart as a JSON-RPC message, and a tools/call of the
// `structure` tool has its arguments turned into a request (everything short of the engine).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "server/mcp/mcp_message.h"

using structure::mcp::RpcLine;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  structure::mcp::McpOptions options;
  options.scope = {"t", "p"};
  options.max_prompt_bytes = 4096;
  options.max_schema_bytes = 4096;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    RpcLine rpc = structure::mcp::ParseRpcLine(line);
    if (rpc.kind == RpcLine::Kind::kError && rpc.code == 0) __builtin_trap();
    if (rpc.kind != RpcLine::Kind::kRequest || rpc.method != "tools/call") continue;
    const structure::Json* name = rpc.params.find("name");
    const structure::Json* arguments = rpc.params.find("arguments");
    if (name == nullptr || !name->is_string() || name->as_string() != "structure") continue;
    if (arguments == nullptr || !arguments->is_object()) continue;
    (void)structure::mcp::StructureToolRequest(*arguments, options);
  }
  return 0;
}
