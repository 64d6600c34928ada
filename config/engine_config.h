// Plain structs for the engine's configuration: providers and their limits, model aliases,
// settings (with their tenant/project overrides) and store locations. Loaded by load_config.h;
// every field has a sane default so the engine runs with no config file at all.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/json.h"
#include "config/network_settings.h"
#include "providers/models.h"
#include "structure/evidence.h"
#include "structure/request.h"

namespace structure::config {

struct Limits {
  int max_concurrency = 64;        // requests on the wire at once
  double requests_per_minute = 0;  // 0 = not limited by us (the provider's 429s still count)
  double tokens_per_minute = 0;    // 0 = not limited by us
  int timeout_ms = 120000;         // per HTTP attempt
  // The I/O thread's batch window under load (base/batch_window.h); 0 = wake for every event.
  // Off by default: measured, it cost the provider path CPU (docs/providers.md).
  int batch_window_us = 0;
};

// How a model thinks and how much it may write: [providers.<name>] for every model of the
// provider, [providers.<name>.models."<model>"] for one (a model table that sets either thinking
// key replaces both of the provider's). Unset: the provider's default.
struct ModelSettings {
  std::optional<std::string>
      reasoning_effort;                      // none | minimal | low | medium | high | xhigh | max
  std::optional<long long> thinking_budget;  // tokens; Anthropic >= 1024, Gemini 0 off, -1 dynamic
  std::optional<long long> max_output_tokens;  // the output cap, thinking included
};

// [providers.<name>.batch]: how `structure batch --provider-batch` uses the provider's batch API.
struct BatchSettings {
  double discount = 0.5;     // batch price / live price, shown in the summary
  int64_t max_requests = 0;  // requests per batch; 0 = the provider's limit
  int64_t max_bytes = 0;     // bytes per batch file / create request; 0 = the provider's limit
  int64_t poll_ms = 5000;    // first wait between polls; grows by half up to max_poll_ms
  int64_t max_poll_ms = 60000;
};

struct ProviderConfig {
  std::string name;         // the table name: [providers.<name>]
  std::string kind;         // one of config::ProviderKinds(): openai, anthropic, vllm, ...
  std::string base_url;     // empty = the provider's default
  std::string api_key_env;  // name of the environment variable holding the key (never the key)
  std::string model;        // default model for this provider
  std::string profile;      // capability profile name (openai-strict, anthropic-strict, ...)
  std::string api;          // kind openai: "responses" | "chat"; empty = the model family's default
  Json profile_overrides;   // object or null: overrides applied to the profile for every model
  std::map<std::string, Json> model_profiles;   // model -> overrides for that model only
  ModelSettings model_settings;                 // every model
  std::map<std::string, ModelSettings> models;  // model -> its own settings
  Limits limits;
  BatchSettings batch;
  NetworkSettings network;  // proxy, trusted CAs, certificate checks (config/network_settings.h)
};

struct ModelAlias {
  std::string provider;  // a key of EngineConfig::providers
  std::string model;     // empty = the provider's default model
};

// Whether the answer ties each leaf to a quote of the input (structure/evidence.h).
using structure::EvidenceMode;

// The settings of a call. A field of SettingsOverride (structure/request.h) that is set replaces
// the value of the level below it: built-in defaults -> config file -> tenant -> project ->
// request.
using structure::SettingsOverride;

// A call's whole time, every provider call, retry and re-ask included (callTimeoutMs).
inline constexpr long long kDefaultCallTimeoutMs = 300'000;  // 5 minutes
inline constexpr long long kMaxCallTimeoutMs = 86'400'000;   // a day

struct Settings {
  std::string model = "default:fast";
  std::string schema_builder_model = "default:fast";
  double confidence_threshold = 0.8;
  bool require_provider_strict_output = true;
  int max_loops = 3;           // 1..10
  long long token_budget = 0;  // tokens per call over all iterations; 0 = no budget
  long long call_timeout_ms = kDefaultCallTimeoutMs;  // 1..kMaxCallTimeoutMs
  // An unresolvable $ref in a schema accepts any value (with a warning) instead of bad_schema.
  bool allow_unresolved_refs = false;
  EvidenceMode evidence = EvidenceMode::kOff;
  long long max_input_tokens_per_call = 0;  // 0 = the model's context window only
};

struct Stores {
  // Bundled schemas: <name>.json + .manual.md. "" = the installed schemas; a directory named here
  // must exist (relative to the working directory).
  std::string registry_dir;
  std::string database;  // SQLite file: tenant/project overrides, caches ("" = in memory)
  int builder_cache_ttl_days = 7;
  // "redis://HOST:PORT/DB": provider limits and the builder cache shared by every process that
  // names the same store (docs/providers.md); empty = each process on its own.
  std::string shared;
  std::string
      shared_password_env;  // the variable holding the store's password (never the password)
  double shared_fallback_share = 0;   // share of each limit while the store is down; 0 = 1/N
  int shared_expected_processes = 1;  // N: processes sharing the store
};

struct TenantConfig {
  SettingsOverride settings;
  std::map<std::string, SettingsOverride> projects;  // project id -> overrides
};

struct EngineConfig {
  std::string source = "<built-in defaults>";  // where it was loaded from
  // [model_families.<kind>."<prefix>"]: changes to the built-in model table, in file order.
  std::vector<providers::FamilyOverride> model_families;
  std::map<std::string, ProviderConfig> providers;
  std::map<std::string, ModelAlias> aliases;  // "default:fast" -> provider + model
  Settings settings;
  Stores stores;
  std::map<std::string, TenantConfig> tenants;
};

}  // namespace structure::config
