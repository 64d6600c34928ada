// The request contract of DESIGN.md §1 and its parsing from JSON (batch lines, the HTTP API,
// the MCP tool). Every bad field gets a message that names it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/json.h"
#include "base/status.h"
#include "config/engine_config.h"
#include "providers/call.h"

namespace structure::pipeline {

enum class SchemaMode { kJson, kNamed, kText };
enum class Priority { kInteractive, kBulk };

std::string_view SchemaModeName(SchemaMode mode);  // "json" | "named" | "text"

// Parameters of the provider call a request may set itself (an OpenAI-compatible request's
// max_tokens, temperature, ...). Unset ones keep the configured or the provider's default; each
// wire format sends those its provider takes.
struct CallParams {
  std::optional<int64_t> max_tokens;  // the output cap, thinking included
  std::optional<double> temperature;
  std::optional<double> top_p;
  std::optional<int64_t> seed;
  std::string reasoning_effort;  // replaces the configured effort when set
  std::string user;              // the caller's end-user id
};

struct StructureRequest {
  std::string prompt;
  SchemaMode mode = SchemaMode::kJson;
  // kJson: the inline schema (object or boolean). Shared and read-only, so a job that sends
  // one schema with every request holds it once and the engine recognises it without
  // re-reading it.
  std::shared_ptr<const Json> schema;
  std::string schema_ref;  // kNamed: registry name; kText: the description
  std::string tenant;
  std::string project;
  // maxLoops, model, tokenBudget, confidenceThreshold, requireProviderStrictOutput, evidence from
  // the request: the last level of the cascade tenant -> project -> request.
  config::SettingsOverride settings;
  Priority priority = Priority::kInteractive;
  bool final_tool = false;  // answer through a submit tool (seed 001)
  // The answer is a list of records: the schema is {type: array, items: T}, or an item schema
  // T that is wrapped so (ArrayModeSchema); JSON Lines and cut-off answers keep their records.
  bool array_mode = false;
  Json metadata;  // caller metadata, echoed back untouched
  // A conversation instead of one prompt (an OpenAI-compatible request's messages): its user
  // and assistant turns, in order, are the first call's turns, and `prompt` holds their user
  // text joined by blank lines (what evidence quotes and a check command reads). Empty: the
  // first call has one user turn, `prompt`.
  std::vector<providers::Turn> turns;
  // The caller's instructions (system messages), added to the manual block of the system prompt.
  std::string instructions;
  CallParams params;
  bool trace = false;  // return every round of the content loop (pipeline/call_trace.h)
};

struct RequestLimits {
  size_t max_prompt_bytes = kMaxPromptBytes;  // 1 MiB
  size_t max_schema_bytes = kMaxSchemaBytes;
  size_t max_schema_depth = 64;
};

// Checks an inline schema: an object or a boolean within the limits. kInvalidArgument
// "schema: ..." otherwise.
Status CheckInlineSchema(const Json& schema, const RequestLimits& limits = {});

// Parses {"prompt", "schema" | "schemaName" | "schemaText", "schemaMode", "maxLoops", "tenant",
// "project", "model", "tokenBudget", "callTimeoutMs", "confidenceThreshold",
// "requireProviderStrictOutput", "priority", "finalTool", "arrayMode", "metadata", "evidence",
// "trace"}.
// "schema" may be an object (mode json) or a string (mode named, or text when schemaMode is
// "text"), as the seed's tool definition says. kInvalidArgument names the field, e.g.
// "maxLoops: must be an integer 1..10 (was 12)". Unknown fields are errors.
// `default_schema` (checked by the caller with CheckInlineSchema) is the inline schema of a
// body that names none; without it such a body is an error.
Result<StructureRequest> ParseRequest(const Json& body, const RequestLimits& limits = {},
                                      std::shared_ptr<const Json> default_schema = nullptr);

}  // namespace structure::pipeline
