#include "apps/structure/engine_flags.h"

#include "base/id.h"
#include "config/builtin_providers.h"
#include "config/config_internal.h"
#include "config/load_config.h"
#include "config/model_ref.h"
#include "registry/schema_name.h"

namespace structure::apps {

void AddEngineFlags(std::vector<FlagSpec>& spec) {
  spec.push_back({"config", true, "FILE: TOML configuration (default: built-in, the simulator)"});
  spec.push_back({"provider", true,
                  "NAME: use this provider for every call: a configured one, or with no config "
                  "openai, anthropic, gemini, ollama, openrouter, openai-compatible"});
  spec.push_back(
      {"base-url", true, "URL: replace the provider's base URL (e.g. a local structure sim)"});
  spec.push_back(
      {"database", true,
       "PATH: SQLite file for schema overrides and the builder cache (default: in memory)"});
  spec.push_back({"registry-dir", true, "DIR: bundled schemas directory"});
  spec.push_back({"allow-unresolved-refs", false,
                  "a $ref that cannot be resolved accepts any value instead of bad_schema"});
}

Status CheckIdFlags(const Args& args) {
  for (const char* flag : {"tenant", "project"}) {
    if (args.has(flag))
      STRUCTURE_RETURN_IF_ERROR(CheckId(args.get(flag), std::string("--") + flag));
  }
  if (args.has("schema-name")) {
    if (Status name = registry::ValidateSchemaName(args.get("schema-name")); !name.ok())
      return InvalidArgument("--schema-name: " + name.message());
  }
  return Status::Ok();
}

FlagSpec CallTimeoutFlag() {
  return {"call-timeout-ms", true,
          "N: a call's whole time in ms, every retry and re-ask included (default: "
          "structure.callTimeoutMs, 300000)"};
}

Result<std::optional<long long>> CallTimeoutFromArgs(const Args& args) {
  if (!args.has("call-timeout-ms")) return std::optional<long long>();
  auto v = args.GetInt("call-timeout-ms", 0);
  if (!v.ok()) return v.status();
  if (*v < 1 || *v > config::kMaxCallTimeoutMs) {
    return InvalidArgument("--call-timeout-ms: must be 1.." +
                           std::to_string(config::kMaxCallTimeoutMs) + " (was " +
                           args.get("call-timeout-ms") + ")");
  }
  return std::optional<long long>(*v);
}

Result<config::EngineConfig> LoadCommandConfig(const std::string& path,
                                               server::ServerConfig* server) {
  auto file = server::LoadServeConfigFile(path);
  if (!file.ok()) return file.status();
  auto cfg = config::ParseConfig(file->text, path);
  if (!cfg.ok()) return cfg.status();
  if (server != nullptr && file->server) *server = std::move(*file->server);
  return cfg;
}

Result<EngineOptions> EngineOptionsFromArgs(const Args& args, server::ServerConfig* server) {
  EngineOptions o;
  config::EngineConfig cfg = ConfigInternal::Of(o.config);
  if (args.has("config")) {
    auto loaded = LoadCommandConfig(args.get("config"), server);
    if (!loaded.ok()) return loaded.status();
    cfg = std::move(*loaded);
  }
  o.provider = args.get("provider");
  if (args.has("provider") && o.provider.empty())
    return InvalidArgument("--provider: must not be empty");
  if (args.has("base-url") && args.get("base-url").empty()) {
    return InvalidArgument("--base-url: must not be empty (give an http(s) URL)");
  }
  // `--model openai` or `--model openai/gpt-4o` with no provider of that name configured means
  // the built-in one, as --provider openai would.
  if (args.has("model") && args.get("model").empty()) {
    return InvalidArgument(
        "--model: must not be empty (give an alias, PROVIDER/MODEL or PROVIDER)");
  }
  if (o.provider.empty() && args.has("model")) {
    auto choice = config::ReadModelRef(cfg, args.get("model"));
    if (choice.ok() && choice->builtin) o.provider = choice->provider;
  } else if (args.has("model")) {
    // --provider P with --model Q, Q another provider's name: the two disagree.
    const std::string model = args.get("model");
    if (model != o.provider && (cfg.providers.count(model) || config::BuiltinProvider(model))) {
      return InvalidArgument("--model " + model + " names the provider " + model +
                             ", but --provider " + o.provider +
                             " is given: drop one of them, or "
                             "give a model of " +
                             o.provider + " (--model NAME)");
    }
  }
  o.base_url = args.get("base-url");
  o.database = args.get("database");
  if (args.has("database") && o.database.empty())
    return InvalidArgument("--database: must not be empty");
  o.registry_dir = args.get("registry-dir");
  if (args.has("allow-unresolved-refs")) cfg.settings.allow_unresolved_refs = true;
  o.config = ConfigInternal::Wrap(std::move(cfg));
  // Errors name the flags the user typed; a provider that came from --model is named by it.
  o.names.provider = args.has("provider") ? "--provider " + o.provider
                     : o.provider.empty()
                         ? ""
                         : "--model " + args.get("model") + " (provider " + o.provider + ")";
  o.names.base_url = "--base-url";
  o.names.registry_dir = "--registry-dir";
  o.names.database = "--database";
  STRUCTURE_RETURN_IF_ERROR(Engine::Check(o));
  return o;
}

}  // namespace structure::apps
