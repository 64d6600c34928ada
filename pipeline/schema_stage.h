// The schema stage's pure parts: compiling the resolved schema (inline, registry or builder)
// and turning request + schema + capability profile into the content loop's spec (lowering,
// lifting and the need channel wired in).
#pragma once

#include <memory>
#include <string>

#include "base/json.h"
#include "base/status.h"
#include "config/engine_config.h"
#include "pipeline/content_loop.h"
#include "pipeline/profile.h"
#include "pipeline/request.h"
#include "pipeline/validator.h"

namespace structure::pipeline {

struct ResolvedSchema {
  Json schema;                                  // the ORIGINAL schema
  std::shared_ptr<const Validator> validator;   // compiled once, shared
  std::string manual;                           // registry manual, may be empty
  std::string origin;                           // inline | registry:... | inferred
  std::string version;                          // registry version, may be empty
};

// Compiles `schema`. kInvalidArgument "schema: <what is wrong>" for a schema the validator
// cannot compile (bad keyword values, unresolvable $ref, invalid pattern).
Result<ResolvedSchema> ResolveSchema(Json schema, std::string origin, std::string manual = "",
                                     std::string version = "");

// Builds the content loop for a request: lowers the schema for `profile` (strict, or the
// fallback path when no sound lowering exists or settings disable provider strict output),
// wires Lift and need detection, and copies the loop limits from `settings`.
Result<LoopSpec> MakeContentSpec(const StructureRequest& request, const ResolvedSchema& schema,
                                 const Profile& profile, const config::Settings& settings,
                                 const std::string& model);

}  // namespace structure::pipeline
