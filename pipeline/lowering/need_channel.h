// The need channel: the form in which each provider can answer
// {"_need": "<what is missing>"} instead of the target, and its detection on the way back.
#pragma once

#include <optional>
#include <string>

#include "base/json.h"
#include "pipeline/lowering/profile.h"
#include "structure/status.h"

namespace structure::pipeline {

inline constexpr const char kNeedKey[] = "_need";
inline constexpr const char kNeedToolName[] = "need_more_input";
inline constexpr const char kEnvelopeResultKey[] = "result";

struct NeedForm {
  NeedKind kind = NeedKind::kPromptOnly;
  // kEnvelope: the member the answer goes in. "result", unless the schema's root has a property
  // of that name: then the first of "_result", "__result", ... it does not have, so that an
  // answer to the user's schema is never taken for the envelope (EnvelopeKeyFor).
  std::string envelope_key = kEnvelopeResultKey;
  // The schema to send: the target with the need branch folded in (kEnvelope, kRootAnyOf), or
  // the target alone (kSecondTool, kPromptOnly).
  Json schema;
  // kSecondTool: the second tool, {"name","description","input_schema"}; null otherwise.
  Json tool;
};

// Builds the need form of `kind` around a provider schema (whose $defs, if any, sit at its root).
// close_objects: the need object says additionalProperties: false (profiles that accept it).
// null_style: how the envelope's nullable members are written (a type array and an anyOf with
// null, or OpenAPI's `nullable: true` for Gemini's legacy dialect).
// description: what the need field asks for (empty: the default, about every required field).
NeedForm MakeNeedForm(const Json& provider_schema, NeedKind kind, bool close_objects = true,
                      NullStyle null_style = NullStyle::kTypeArray,
                      const std::string& description = "");

// If the provider's answer is a need answer, returns what is missing. For kSecondTool the caller
// passes the need tool's arguments ({"_need": ...}) when the model called that tool.
std::optional<std::string> DetectNeed(const Json& output, const NeedForm& form);

// The envelope member for a provider schema: "result", or the first of "_result", "__result", ...
// that no property at its root (or in a root anyOf / oneOf / allOf branch) is called.
std::string EnvelopeKeyFor(const Json& provider_schema);

// True when `output` has the shape of the envelope the provider was asked for: an object with
// `key` and no member but `key` and "_need". An answer with other members is a bare answer
// that skipped the envelope.
bool IsEnvelope(const Json& output, const std::string& key = kEnvelopeResultKey);

// The target part of a non-need answer, ready for Lift: unwraps the envelope for kEnvelope,
// passes the output through otherwise. kNotFound when the output is not an envelope at all (the
// model ignored the form); kSchemaViolation when it holds neither a value nor a need.
Result<Json> UnwrapNeed(const Json& output, const NeedForm& form);

}  // namespace structure::pipeline
