// The need channel as requests carry it (DESIGN.md §2.3): a root anyOf with a {"_need"} branch,
// an envelope object with a "_need" property, or a second tool `need_more_input`. These
// helpers generate a proper answer (never the need branch) or the need answer for a schema.
#pragma once

#include <cstdint>
#include <string>

#include "base/json.h"
#include "base/status.h"

namespace structure::sim {

inline constexpr const char* kNeedTool = "need_more_input";
inline constexpr const char* kNeedKey = "_need";

// A schema-valid instance that is a real answer: a need branch or need property is never
// chosen. Errors from the instance generator pass through (kInvalidArgument).
Result<Json> GenerateAnswer(const Json& schema, uint64_t seed);

// The need answer for schema: the {"_need": message} branch or envelope when the schema has
// one, else the plain seed form {"_need": message}.
Json GenerateNeed(const Json& schema, const std::string& message, uint64_t seed);

}  // namespace structure::sim
