// The Chat Completions request as the official OpenAI SDKs send it, checked and reduced to what
// one structure call needs. Every refusal is an ApiError that names the field at fault
// ("messages[2].content[0]", "response_format.json_schema.schema"). Pure: no engine, no sockets.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/json.h"
#include "config/engine_config.h"
#include "pipeline/request.h"
#include "providers/call.h"
#include "server/openai/openai_error.h"

namespace structure::server::openai {

// The server's limits, as for POST /v1/structure (server.* settings).
struct ChatLimits {
  size_t max_prompt_bytes = 256 * 1024;  // all message text together
  size_t max_schema_bytes = 256 * 1024;
  size_t max_schema_depth = 32;
  int min_loops = 1;
  int max_loops = 10;
};

// How a need-more-input result is answered: as the message's refusal (content null), or as a
// 422 error (structure.need = "error").
enum class NeedAs { kRefusal, kError };

struct ChatRequest {
  std::string model;
  std::vector<ConversationTurn> turns;  // the user and assistant turns, in order
  std::string prompt;                   // their user text, joined by blank lines
  std::string instructions;             // system and developer messages, joined
  std::vector<InputFile> files;         // the user messages' file and image parts
  // The schema of the answer (response_format's, {"type": "object"} for json_object, or the
  // forced tool's parameters); null when structure.schemaName names a registry schema.
  std::shared_ptr<const Json> schema;
  std::string schema_param;     // the field that held it, for errors about the schema
  std::string registry_schema;  // structure.schemaName, or the schema a schema model names
  // `model` names a registry schema ("schema:invoice@1.2", server/openai/models.h): the call
  // runs that schema whatever response_format says; registry_version is the version asked.
  bool schema_model = false;
  std::string registry_version;
  std::string tool_name;  // a forced tool: the answer is a call of this function
  bool stream = false;
  bool include_usage = false;  // stream_options.include_usage
  pipeline::CallParams params;
  // The `structure` extension object.
  std::optional<int> max_loops;
  std::optional<config::EvidenceMode> evidence;
  std::optional<std::string> tenant;
  std::optional<std::string> project;
  NeedAs need = NeedAs::kRefusal;
};

// Checks `body` (the parsed JSON) field by field. Fields OpenAI takes that change nothing here
// (frequency_penalty, stop, metadata, ...) are checked for their type and otherwise ignored; n > 1,
// logprobs, audio output and image, audio or file parts are refused naming the field, as is a
// field OpenAI does not know. The answer must be structured: a json_schema or json_object
// response_format, a forced tool, or structure.schemaName. The schema moves out of `body`.
std::variant<ChatRequest, ApiError> ParseChatRequest(Json body, const ChatLimits& limits);

// The structure call for `chat` on the model `model_ref` (an alias, provider/model or provider;
// "" = the configured default) in `tenant` / `project`. The conversation moves out of `chat`.
pipeline::StructureRequest ToStructureRequest(ChatRequest& chat, const std::string& model_ref,
                                              const std::string& tenant,
                                              const std::string& project);

}  // namespace structure::server::openai
