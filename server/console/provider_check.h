// How each configured provider would be asked for a schema: strict (the provider enforces the
// lowered schema; constraints it cannot take are checked after generation) or fallback (plain
// JSON, the schema in the prompt, local validation only) and why. The same lowering the engine
// does for a call (pipeline/lowering), for the console's registry editor.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/json.h"
#include "config/engine_config.h"

namespace structure::server {

struct ProviderVerdict {
  std::string provider;  // configured name
  std::string model;     // its default model
  std::string profile;
  std::string mode;    // "strict" | "fallback"
  std::string reason;  // why fallback, or why the profile could not be read
  struct Dropped {
    std::string path;  // JSON pointer into the schema
    std::string keyword;
  };
  std::vector<Dropped> dropped;  // constraints checked after generation
};

// One verdict per configured provider, in name order. `schema` must be a schema (the caller
// compiled it); a provider whose profile cannot be read gets mode "fallback" with the reason.
std::vector<ProviderVerdict> CheckProviders(const config::EngineConfig& config, const Json& schema);

// [{"provider","model","profile","mode","reason","dropped":[{"path","keyword"}]}]
Json ProviderVerdictsJson(const std::vector<ProviderVerdict>& verdicts);

}  // namespace structure::server
