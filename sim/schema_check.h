// Provider-side schema checks: the simulator answers 400 where the real provider rejects a
// schema. Uses the lowering library's CheckProviderSchema when it is built into this tree,
// else a built-in subset of the documented rules (docs/PROVIDERS.md §2).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"

namespace structure::sim {

// Reasons the provider would reject `schema` under `profile` ("openai-strict",
// "anthropic-strict", "gemini-legacy", "gemini", "ollama", ...); empty = accepted.
// An unknown profile accepts everything.
std::vector<std::string> ProviderSchemaIssues(const Json& schema, std::string_view profile);

// The built-in subset (exposed for tests; ProviderSchemaIssues may use the lowering library).
std::vector<std::string> BasicSchemaIssues(const Json& schema, std::string_view profile);

// Gemini's responseSchema is a proto whose Type enum the docs spell in capitals ("OBJECT");
// the API takes either case. Returns the schema with lower-case type names.
Json LowerCaseTypes(const Json& schema);

}  // namespace structure::sim
