#include "server/mcp/mcp_server.h"

#include "base/error_codes.h"
#include "base/line_reader.h"
#include "pipeline/result.h"
#include "registry/schema_registry.h"

namespace structure::mcp {
namespace {

// The tool definitions, as MCP inputSchema/outputSchema: `structure` takes the request's
// fields and returns the result's.
constexpr const char* kTools = R"JSON([
  {
    "name": "structure",
    "title": "Structure free text into validated JSON",
    "description": "Convert free-form content into a validated JSON object. Provide a prompt describing what should be extracted, plus a schema (JSON Schema, registry name, or natural-language description). Returns the validated JSON, or an error indicating missing information.",
    "inputSchema": {
      "type": "object",
      "properties": {
        "prompt": {"type": "string", "description": "Free-form input text to be structured."},
        "schema": {
          "oneOf": [
            {"type": "object", "description": "JSON Schema 2020-12, inline."},
            {"type": "string", "description": "Schema name in registry (when schemaMode=named) OR natural-language description (when schemaMode=text)."}
          ]
        },
        "schemaMode": {"type": "string", "enum": ["json", "named", "text"], "default": "json",
                       "description": "Disambiguate when 'schema' is a string. Ignored when 'schema' is an object (always 'json')."},
        "maxLoops": {"type": "integer", "default": 3, "minimum": 1, "maximum": 10},
        "confidenceThreshold": {"type": "number", "minimum": 0, "maximum": 1,
                                "description": "schemaMode=text: below this builder confidence the result is need-more-input. Default from the server's settings (0.8)."},
        "requireProviderStrictOutput": {"type": "boolean",
                                        "description": "false: ask the provider in plain JSON mode and validate locally only. Default from the server's settings (true)."},
        "evidence": {"type": "string", "enum": ["off", "report", "require"],
                     "description": "report: each value comes with the quote of the prompt that supports it; require: values no quote supports are re-asked, then removed (optional) or need-more-input (required)."},
        "files": {"type": "array", "description": "Files to read (PDF, PNG, JPEG, WebP, GIF, text): each {data: base64 or a data URL, mediaType?, name?}. prompt may then be left out.",
                  "items": {"type": "object", "properties": {"data": {"type": "string"}, "mediaType": {"type": "string"}, "name": {"type": "string"}, "url": {"type": "string"}}}},
        "filesAs": {"type": "string", "enum": ["native", "text"], "description": "text: send each PDF as its text layer instead of the document."}
      },
      "required": ["schema"]
    },
    "outputSchema": {
      "type": "object",
      "properties": {
        "status": {"type": "string", "enum": ["ok", "need-more-input", "stale"]},
        "data": {"type": "object", "description": "Validated JSON, present iff status=ok."},
        "need": {"type": "string", "description": "Human-readable description of missing input, present iff status=need-more-input."},
        "errors": {"type": "array", "items": {"type": "string"}, "description": "Validator messages from the last failed iteration, present iff status=stale."},
        "schemaOrigin": {"type": "string", "description": "'inline' | 'registry:bundled' | 'registry:tenant:<id>' | 'registry:project:<id>' | 'inferred'. Useful for debugging."},
        "iterations": {"type": "integer", "description": "Number of content-stage iterations consumed."},
        "evidence": {"type": "object", "description": "evidence report|require: JSON pointer -> {quote, byteStart, byteEnd, cpStart, cpEnd, match, kind} for each value the input supports."},
        "ungrounded": {"type": "array", "items": {"type": "string"}, "description": "evidence report|require: JSON pointers of values no quote of the input supports."}
      },
      "required": ["status", "schemaOrigin", "iterations"]
    }
  },
  {
    "name": "list_schemas",
    "title": "List registry schemas",
    "description": "Lists the schemas that 'structure' can use by name (schemaMode=named): bundled ones and the overrides of this tenant and project, with version, origin and title.",
    "inputSchema": {"type": "object", "properties": {}},
    "outputSchema": {
      "type": "object",
      "properties": {
        "schemas": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "name": {"type": "string"},
              "version": {"type": "string"},
              "origin": {"type": "string"},
              "title": {"type": "string"},
              "description": {"type": "string"}
            },
            "required": ["name", "version", "origin"]
          }
        }
      },
      "required": ["schemas"]
    }
  }
])JSON";

Json TextContent(const std::string& text) {
  Json item = Json::MakeObject();
  item.set("type", "text");
  item.set("text", text);
  Json content = Json::MakeArray();
  content.push_back(std::move(item));
  return content;
}

Json ToolError(const std::string& message) {
  Json r = Json::MakeObject();
  r.set("content", TextContent(message));
  r.set("isError", true);
  return r;
}

Json ToolOk(Json structured) {
  Json r = Json::MakeObject();
  r.set("content", TextContent(ToJson(structured)));
  r.set("structuredContent", std::move(structured));
  r.set("isError", false);
  return r;
}

// The reply to a call that ended `error`, in the form the code's row says.
Json ResultError(const pipeline::StructureResult& result) {
  switch (ErrorCodeFactsOf(result.error_code).mcp) {
    case McpErrorForm::kToolError:
      break;
  }
  std::string text = "error " + std::string(ErrorCodeName(result.error_code)) + ":";
  for (const auto& e : result.errors) text += " " + e;
  return ToolError(text);
}

// The result's fields an agent acts on (no usage or mode), plus the evidence the caller asked
// for.
Json StructuredResult(const pipeline::StructureResult& result) {
  Json s = Json::MakeObject();
  s.set("status", std::string(pipeline::OutcomeName(result.status)));
  if (result.status == pipeline::Outcome::kOk) s.set("data", result.data);
  if (result.status == pipeline::Outcome::kNeedMoreInput) s.set("need", result.need);
  if (result.status == pipeline::Outcome::kStale) {
    Json errors = Json::MakeArray();
    for (const auto& e : result.errors) errors.push_back(e);
    s.set("errors", std::move(errors));
  }
  s.set("schemaOrigin", result.schema_origin);
  s.set("iterations", static_cast<int64_t>(result.iterations));
  if (!result.evidence.is_null()) s.set("evidence", result.evidence);
  if (!result.ungrounded.is_null()) s.set("ungrounded", result.ungrounded);
  return s;
}

}  // namespace

McpServer::McpServer(Engine& engine, McpOptions options,
                     std::function<void(const std::string&)> write)
    : engine_(engine), options_(std::move(options)), write_(std::move(write)) {}

Json McpServer::ToolsJson() {
  static const Json* tools = [] {
    auto parsed = ParseJson(kTools);
    return new Json(parsed.ok() ? std::move(*parsed) : Json::MakeArray());
  }();
  return *tools;
}

void McpServer::Send(const Json& message) {
  std::string text = ToJson(message);
  std::lock_guard<std::mutex> lock(mu_);
  write_(text);
}

void McpServer::Reply(const Json& id, Json result) {
  Json m = Json::MakeObject();
  m.set("jsonrpc", "2.0");
  m.set("id", id);
  m.set("result", std::move(result));
  Send(m);
}

void McpServer::ReplyError(const Json& id, int code, const std::string& message) {
  Json error = Json::MakeObject();
  error.set("code", code);
  error.set("message", message);
  Json m = Json::MakeObject();
  m.set("jsonrpc", "2.0");
  m.set("id", id);
  m.set("error", std::move(error));
  Send(m);
}

void McpServer::HandleMessage(std::string_view text) {
  RpcLine line = ParseRpcLine(text);
  if (line.kind == RpcLine::Kind::kIgnore) return;
  if (line.kind == RpcLine::Kind::kError) return ReplyError(line.id, line.code, line.message);
  const Json* id = &line.id;
  const Json* params = line.params.is_null() ? nullptr : &line.params;
  const std::string& name = line.method;
  if (name == "initialize") {
    std::string version = kProtocolVersion;
    // Older revisions a client may ask for are answered in kind; anything else gets ours.
    if (params != nullptr) {
      if (const Json* v = params->find("protocolVersion"); v != nullptr && v->is_string()) {
        for (const char* known : {"2025-06-18", "2025-03-26", "2024-11-05"}) {
          if (v->as_string() == known) version = known;
        }
      }
    }
    Json tools = Json::MakeObject();
    tools.set("listChanged", false);
    Json caps = Json::MakeObject();
    caps.set("tools", std::move(tools));
    Json info = Json::MakeObject();
    info.set("name", "structure");
    info.set("version", options_.server_version);
    Json r = Json::MakeObject();
    r.set("protocolVersion", version);
    r.set("capabilities", std::move(caps));
    r.set("serverInfo", std::move(info));
    r.set("instructions",
          "Call 'structure' to turn free text into JSON valid against a schema; on "
          "need-more-input, ask the user for what 'need' names and call again.");
    return Reply(*id, std::move(r));
  }
  if (name == "ping") return Reply(*id, Json::MakeObject());
  if (name == "tools/list") {
    Json r = Json::MakeObject();
    r.set("tools", ToolsJson());
    return Reply(*id, std::move(r));
  }
  if (name == "tools/call") {
    const Json* tool = params ? params->find("name") : nullptr;
    if (tool == nullptr || !tool->is_string())
      return ReplyError(*id, kInvalidParams, "params.name: must be a string");
    Json arguments = Json::MakeObject();
    if (const Json* a = params->find("arguments"); a != nullptr && !a->is_null()) {
      if (!a->is_object())
        return ReplyError(*id, kInvalidParams, "params.arguments: must be an object");
      arguments = *a;
    }
    if (tool->as_string() == "structure") return CallStructure(*id, arguments);
    if (tool->as_string() == "list_schemas") return CallListSchemas(*id, arguments);
    return ReplyError(*id, kInvalidParams, "unknown tool '" + tool->as_string() + "'");
  }
  ReplyError(*id, kMethodNotFound, "method not found: " + name);
}

void McpServer::CallStructure(const Json& id, const Json& arguments) {
  auto request = StructureToolRequest(arguments, options_);
  if (!request.ok()) return Reply(id, ToolError(request.status().message()));
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++pending_;
  }
  engine_.Submit(std::move(*request), [this, id](pipeline::StructureResult result) {
    if (result.status == pipeline::Outcome::kError) {
      Reply(id, ResultError(result));
    } else {
      Reply(id, ToolOk(StructuredResult(result)));
    }
    std::lock_guard<std::mutex> lock(mu_);
    --pending_;
    idle_.notify_all();
  });
}

void McpServer::CallListSchemas(const Json& id, const Json& arguments) {
  if (arguments.size() != 0) return Reply(id, ToolError("list_schemas takes no parameters"));
  auto list = EngineInternal::Schemas(engine_).List(options_.scope);
  if (!list.ok()) return Reply(id, ToolError(list.status().message()));
  Json items = Json::MakeArray();
  for (const auto& s : *list) {
    Json item = Json::MakeObject();
    item.set("name", s.name);
    item.set("version", s.version);
    item.set("origin", s.origin);
    for (const char* key : {"title", "description"}) {
      if (const Json* v = s.schema.find(key); v != nullptr && v->is_string()) item.set(key, *v);
    }
    items.push_back(std::move(item));
  }
  Json structured = Json::MakeObject();
  structured.set("schemas", std::move(items));
  Reply(id, ToolOk(std::move(structured)));
}

void McpServer::Drain() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_.wait(lock, [this] { return pending_ == 0; });
}

void McpServer::RejectLine(const std::string& why) {
  ReplyError(Json(), kParseError, "parse error: " + why);
}

// Bytes, not C strings: a NUL is one more byte of its line (which HandleMessage then rejects),
// never the end of it. A line over max_line_bytes is answered with a parse error and skipped
// to its newline without being kept.
int RunStdio(McpServer& server, std::FILE* in) {
  LineReader reader(in, server.max_line_bytes());
  for (;;) {
    LineReader::Got got = reader.Next();
    if (got == LineReader::Got::kInterrupted) continue;
    if (got == LineReader::Got::kEnd || got == LineReader::Got::kError) break;
    if (got == LineReader::Got::kTooLong) {
      server.RejectLine("a message is longer than " + std::to_string(reader.max_line_bytes()) +
                        " bytes (the limit of one line)");
      continue;
    }
    std::string_view line = reader.line();
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) server.HandleMessage(line);
  }
  server.Drain();
  return 0;
}

}  // namespace structure::mcp
