// Plain structs for the engine's configuration: providers and their limits, model aliases,
// settings (with their tenant/project overrides) and store locations. Loaded by load_config.h;
// every field has a sane default so the engine runs with no config file at all.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "base/json.h"

namespace structure::config {

struct Limits {
  int max_concurrency = 64;         // requests on the wire at once
  double requests_per_minute = 0;   // 0 = not limited by us (the provider's 429s still count)
  double tokens_per_minute = 0;     // 0 = not limited by us
  int timeout_ms = 120000;          // per HTTP attempt
};

struct ProviderConfig {
  std::string name;         // the table name: [providers.<name>]
  std::string kind;         // openai | anthropic | gemini | ollama | openai-compatible | openrouter
  std::string base_url;     // empty = the provider's default
  std::string api_key_env;  // name of the environment variable holding the key (never the key)
  std::string model;        // default model for this provider
  std::string profile;      // capability profile name (openai-strict, anthropic-strict, ...)
  Json profile_overrides;   // object or null: overrides applied to the profile for every model
  std::map<std::string, Json> model_profiles;  // model -> overrides for that model only
  Limits limits;
};

struct ModelAlias {
  std::string provider;  // a key of EngineConfig::providers
  std::string model;     // empty = the provider's default model
};

// The settings of DESIGN.md §6. A field of SettingsOverride that is set replaces the value of the
// level below it: built-in defaults -> config file -> tenant -> project -> request.
struct Settings {
  std::string model = "default:fast";
  std::string schema_builder_model = "default:fast";
  double confidence_threshold = 0.8;
  bool require_provider_strict_output = true;
  int max_loops = 3;       // 1..10
  long long token_budget = 0;  // tokens per call over all iterations; 0 = no budget
  // An unresolvable $ref in a schema accepts any value (with a warning) instead of bad_schema.
  bool allow_unresolved_refs = false;
};

struct SettingsOverride {
  std::optional<std::string> model;
  std::optional<std::string> schema_builder_model;
  std::optional<double> confidence_threshold;
  std::optional<bool> require_provider_strict_output;
  std::optional<int> max_loops;
  std::optional<long long> token_budget;
  std::optional<bool> allow_unresolved_refs;
};

struct Stores {
  std::string registry_dir = "registry/schemas";   // bundled schemas: <name>.json + .manual.md
  std::string database = "structure.db";           // SQLite: tenant/project overrides, caches
  int builder_cache_ttl_days = 7;
};

struct TenantConfig {
  SettingsOverride settings;
  std::map<std::string, SettingsOverride> projects;  // project id -> overrides
};

struct EngineConfig {
  std::string source = "<built-in defaults>";  // where it was loaded from
  std::map<std::string, ProviderConfig> providers;
  std::map<std::string, ModelAlias> aliases;   // "default:fast" -> provider + model
  Settings settings;
  Stores stores;
  std::map<std::string, TenantConfig> tenants;
};

}  // namespace structure::config
