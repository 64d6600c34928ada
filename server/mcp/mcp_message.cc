#include "server/mcp/mcp_message.h"

namespace structure::mcp {
namespace {

RpcLine Error(Json id, int code, std::string message) {
  RpcLine line;
  line.kind = RpcLine::Kind::kError;
  line.id = std::move(id);
  line.code = code;
  line.message = std::move(message);
  return line;
}

}  // namespace

RpcLine ParseRpcLine(std::string_view text) {
  if (size_t nul = text.find('\0'); nul != std::string_view::npos) {
    return Error(Json(), kParseError,
                 "parse error: NUL byte at byte " + std::to_string(nul) +
                     " of the line (JSON text has none)");
  }
  ParseOptions po;
  po.source = "message";
  auto message = ParseJson(text, po);
  if (!message.ok())
    return Error(Json(), kParseError, "parse error: " + message.status().message());
  if (!message->is_object()) {
    return Error(Json(), kInvalidRequest,
                 "a message must be a JSON object (batches are not supported)");
  }
  const Json* id = message->find("id");
  const Json* method = message->find("method");
  if (method == nullptr) {
    // A response from the client (we send no requests) or garbage: nothing to answer.
    if (id != nullptr && message->find("result") == nullptr && message->find("error") == nullptr) {
      return Error(*id, kInvalidRequest, "method: is required");
    }
    return RpcLine{};
  }
  if (!method->is_string())
    return Error(id ? *id : Json(), kInvalidRequest, "method: must be a string");
  if (id == nullptr)
    return RpcLine{};  // notifications (initialized, cancelled, ...) need no answer
  if (!id->is_string() && !id->is_integral()) {
    return Error(Json(), kInvalidRequest, "id: must be a string or an integer");
  }
  RpcLine line;
  line.kind = RpcLine::Kind::kRequest;
  line.id = *id;
  line.method = method->as_string();
  if (const Json* params = message->find("params")) line.params = *params;
  return line;
}

Result<pipeline::StructureRequest> StructureToolRequest(const Json& arguments,
                                                        const McpOptions& options) {
  Json body = Json::MakeObject();
  for (const auto& [key, value] : arguments.as_object()) {
    if (key != "prompt" && key != "schema" && key != "schemaMode" && key != "maxLoops" &&
        key != "confidenceThreshold" && key != "requireProviderStrictOutput" && key != "evidence" &&
        key != "files" && key != "filesAs") {
      return InvalidArgument(key +
                             ": unknown parameter (expected prompt, schema, schemaMode, "
                             "maxLoops, confidenceThreshold, requireProviderStrictOutput, "
                             "evidence, files, filesAs)");
    }
    body.set(key, value);
  }
  if (!body.contains("schema")) return InvalidArgument("schema: is required");
  if (!options.scope.tenant.empty()) body.set("tenant", options.scope.tenant);
  if (!options.scope.project.empty()) body.set("project", options.scope.project);
  pipeline::RequestLimits limits;
  limits.max_prompt_bytes = options.max_prompt_bytes;
  limits.max_schema_bytes = options.max_schema_bytes;
  return pipeline::ParseRequest(body, limits);
}

}  // namespace structure::mcp
