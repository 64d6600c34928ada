// The request contract of DESIGN.md §1 and its parsing from JSON (batch lines, the HTTP API,
// the MCP tool). Every bad field gets a message that names it.
#pragma once

#include <memory>
#include <string>

#include "base/json.h"
#include "base/status.h"
#include "config/engine_config.h"

namespace structure::pipeline {

enum class SchemaMode { kJson, kNamed, kText };
enum class Priority { kInteractive, kBulk };

std::string_view SchemaModeName(SchemaMode mode);  // "json" | "named" | "text"

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
// "requireProviderStrictOutput",
// "priority", "finalTool", "arrayMode", "metadata", "evidence"}.
// "schema" may be an object (mode json) or a string (mode named, or text when schemaMode is
// "text"), as the seed's tool definition says. kInvalidArgument names the field, e.g.
// "maxLoops: must be an integer 1..10 (was 12)". Unknown fields are errors.
// `default_schema` (checked by the caller with CheckInlineSchema) is the inline schema of a
// body that names none; without it such a body is an error.
Result<StructureRequest> ParseRequest(const Json& body, const RequestLimits& limits = {},
                                      std::shared_ptr<const Json> default_schema = nullptr);

}  // namespace structure::pipeline
