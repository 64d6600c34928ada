// StructureRequest: one piece of free text to structure, the schema to structure it by, and the
// settings of this one request. ParseRequest reads it from JSON, as the HTTP API, the MCP tool
// and batch input lines write it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "structure/evidence.h"
#include "structure/json.h"
#include "structure/status.h"

namespace structure {

// How StructureRequest names its schema.
enum class SchemaMode {
  kJson,   // `schema` holds a JSON Schema (Draft 2020-12, 2019-09, 7, 6 or 4)
  kNamed,  // `schema_ref` names a registry schema: the project's, else the tenant's, else bundled
  kText,   // `schema_ref` describes the record in words; the schema builder writes the schema
};

// "json" | "named" | "text".
std::string_view SchemaModeName(SchemaMode mode);

enum class Priority {
  kInteractive,  // served first when a provider's limits leave a choice
  kBulk,         // batch work: waits while interactive calls are queued
};

// Settings a request (or a tenant or project of the configuration) may change. A field that is
// set replaces the value of the level below it: built-in defaults, then the config file, then
// the tenant, the project, the request.
struct SettingsOverride {
  std::optional<std::string> model;                    // "provider/model" or an alias
  std::optional<std::string> schema_builder_model;     // the same, for kText requests
  std::optional<double> confidence_threshold;          // 0..1: the schema builder's minimum
  std::optional<bool> require_provider_strict_output;  // false asks in plain JSON mode
  std::optional<int> max_loops;                        // content-stage attempts, 1..10
  std::optional<long long> token_budget;      // tokens over every call of the request; 0 = none
  std::optional<long long> call_timeout_ms;   // the request's whole time, retries and re-asks
                                              // included; 1 ms .. a day (default 5 minutes)
  std::optional<bool> allow_unresolved_refs;  // an unresolvable $ref accepts any value
  std::optional<EvidenceMode> evidence;
  // The most input tokens one call sends: a longer input is split into parts that each fit
  // (docs/engine.md "Long documents"), for answer quality even when the model would take it
  // all; 0 = only the model's context window splits it.
  std::optional<long long> max_input_tokens_per_call;
};

// One message of a conversation given instead of one prompt (an OpenAI-compatible request's
// user and assistant messages).
enum class TurnRole { kUser, kAssistant };
struct ConversationTurn {
  TurnRole role = TurnRole::kUser;
  std::string text;
};

// Parameters of the provider call a request may set itself. Unset ones keep the configured or
// the provider's default; each provider gets those its API takes.
struct CallParams {
  std::optional<int64_t> max_tokens;  // the output cap, thinking included
  std::optional<double> temperature;
  std::optional<double> top_p;
  std::optional<int64_t> seed;
  std::string reasoning_effort;  // replaces the configured effort when set
  std::string user;              // an id of the caller's end user
};

// A file attached to a request (a PDF, an image or plain text), sent to the model in the
// provider's own document or image part, after the manual and before the prompt text.
struct InputFile {
  std::string name;        // shown to the model for PDFs and named in errors ("invoice.pdf")
  std::string media_type;  // empty: detected from the bytes; set: must match them
  std::string data;        // the file's bytes
};

// How attached PDFs reach the model.
enum class FilesAs {
  kNative,  // the provider's document part (Ollama, which takes none: the text layer)
  kText,    // the PDF's text layer, page by page, as text (cheaper where text costs less)
};

// The sizes of attached files a request may carry. Defaults stay within every provider's
// documented inline limits after base64 (Gemini: 20 MB a request; Anthropic: 32 MB; OpenAI: 50
// MB a file).
struct FileLimits {
  size_t max_files = 20;
  size_t max_file_bytes = 10u << 20;   // one file, 10 MiB
  size_t max_total_bytes = 14u << 20;  // all files of a request, 14 MiB
  int max_pdf_pages = 1000;            // Gemini's documented maximum
};

struct StructureRequest {
  std::string prompt;  // the free text, valid UTF-8; may be empty when files are attached
  SchemaMode mode = SchemaMode::kJson;
  // kJson: the schema (an object or a boolean). Shared and read-only: requests that send the
  // same schema object hold it once, and the engine recognises it without reading it again.
  std::shared_ptr<const Json> schema;
  std::string schema_ref;  // kNamed: the registry name; kText: the description
  std::string tenant;      // scope of registry lookups and of the tenant's settings
  std::string project;     // within the tenant; needs a tenant
  SettingsOverride settings;
  Priority priority = Priority::kInteractive;
  bool final_tool = false;  // the model answers by calling a submit tool (agent-loop style)
  // The answer is a list of records: the schema is {type: array, items: T}, or an item schema
  // T that is wrapped so. JSON Lines answers and answers cut off at the output cap keep their
  // complete records.
  bool array_mode = false;
  Json metadata;  // the caller's, never read by the engine
  // A conversation instead of one prompt: its turns, in order, are the first call's, and
  // `prompt` holds their user text joined by blank lines (what evidence quotes and a check
  // reads). Empty: the first call has one user turn, `prompt`.
  std::vector<ConversationTurn> turns;
  std::string instructions;  // the caller's (system messages), added to the system prompt
  CallParams params;
  bool trace = false;  // the result carries every round of the content loop (StructureResult)
  std::vector<InputFile> files;  // attached files, in order (PDF, PNG, JPEG, WebP, GIF, text)
  FilesAs files_as = FilesAs::kNative;
};

// The sizes ParseRequest accepts.
struct RequestLimits {
  size_t max_prompt_bytes = 1 << 20;  // 1 MiB
  size_t max_schema_bytes = 1 << 20;
  size_t max_schema_depth = 64;
  FileLimits files;
};

// Reads a request from its JSON form: {"prompt", "schema" | "schemaName" | "schemaText",
// "schemaMode", "maxLoops", "tenant", "project", "model", "tokenBudget", "callTimeoutMs",
// "maxInputTokensPerCall",
// "confidenceThreshold", "requireProviderStrictOutput", "priority", "finalTool", "arrayMode",
// "metadata", "evidence", "trace", "files", "filesAs"}. "files" is an array of {"mediaType",
// "data" (base64), "name"} or {"url"} (refused: the engine fetches nothing); "filesAs" is "native"
// or "text". "schema" may be an object (kJson) or a string (kNamed, or kText
// with "schemaMode": "text"). Unknown fields are errors.
//
// kInvalidArgument names the field and what is wrong with it, e.g. "maxLoops: must be an
// integer 1..10 (was 12)". `default_schema`, when set, is the schema of a body that names none
// (checked by the caller); without it such a body is an error.
Result<StructureRequest> ParseRequest(const Json& body, const RequestLimits& limits = {},
                                      std::shared_ptr<const Json> default_schema = nullptr);

}  // namespace structure
