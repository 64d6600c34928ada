#include "sim/schema_check.h"

#include <cctype>

#if defined(STRUCTURE_SIM_HAS_STRICT_CHECK)
#include "pipeline/lowering/profile.h"
#include "pipeline/lowering/strict_check.h"
#endif

namespace structure::sim {
Json LowerCaseTypes(const Json& s) {
  if (s.is_array()) {
    Json out = Json::MakeArray();
    for (const auto& x : s.as_array()) out.push_back(LowerCaseTypes(x));
    return out;
  }
  if (!s.is_object()) return s;
  Json out = Json::MakeObject();
  for (const auto& [key, value] : s.as_object()) {
    if (key == "type" && value.is_string()) {
      std::string t = value.as_string();
      for (auto& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      out.set(key, t);
    } else {
      out.set(key, LowerCaseTypes(value));
    }
  }
  return out;
}

std::vector<std::string> ProviderSchemaIssues(const Json& schema, std::string_view profile) {
  // Only these providers reject a schema; the others silently ignore what they cannot enforce,
  // so their checker findings are no reason for a 400.
  if (profile != "openai-strict" && profile != "anthropic-strict" && profile != "gemini-legacy") {
    return {};
  }
  if (profile == "gemini-legacy") {
    Json lowered = LowerCaseTypes(schema);
#if defined(STRUCTURE_SIM_HAS_STRICT_CHECK)
    if (auto p = pipeline::FindProfile(profile); p.ok())
      return pipeline::CheckProviderSchema(lowered, *p);
#endif
    return BasicSchemaIssues(lowered, profile);
  }
#if defined(STRUCTURE_SIM_HAS_STRICT_CHECK)
  auto p = pipeline::FindProfile(profile);
  if (p.ok()) return pipeline::CheckProviderSchema(schema, *p);
#endif
  return BasicSchemaIssues(schema, profile);
}

}  // namespace structure::sim
