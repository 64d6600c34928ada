#include "config/model_ref.h"

#include "config/builtin_providers.h"

namespace structure::config {
namespace {

std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

// What may be written instead: the aliases and providers of `config`, and the built-in ones.
std::string Choices(const EngineConfig& config) {
  std::vector<std::string> aliases;
  for (const auto& [name, alias] : config.aliases) aliases.push_back(name);
  std::vector<std::string> providers;
  for (const auto& [name, provider] : config.providers) providers.push_back(name);
  return "write PROVIDER/MODEL (e.g. openai/gpt-4o), PROVIDER alone for its default model, or an "
         "alias; the configured aliases are " +
         Joined(aliases) + "; the configured providers are " + Joined(providers) +
         "; built in: " + Joined(BuiltinProviderNames());
}

// A bare name that is no provider: the configured providers that list it as a model.
Result<ModelChoice> ReadBareModel(const EngineConfig& config, const std::string& ref) {
  std::vector<std::string> listing;
  for (const auto& [name, provider] : config.providers) {
    if (ProviderModels(provider).count(ref)) listing.push_back(name);
  }
  if (listing.size() == 1) return ModelChoice{listing[0], ref, false};
  if (listing.size() > 1) {
    std::vector<std::string> refs;
    for (const std::string& n : listing) refs.push_back(n + "/" + ref);
    return NotFound("model '" + ref + "' is listed by several providers: name one (" +
                    Joined(refs) + ")");
  }
  if (ref.find(':') != std::string::npos) {
    return NotFound("unknown model alias '" + ref + "': " + Choices(config));
  }
  return NotFound("unknown model '" + ref +
                  "' (no alias, provider or provider's model): " + Choices(config));
}

}  // namespace

std::set<std::string> ProviderModels(const ProviderConfig& provider) {
  std::set<std::string> out;
  if (!provider.model.empty()) out.insert(provider.model);
  for (const auto& [model, settings] : provider.models) out.insert(model);
  for (const auto& [model, profile] : provider.model_profiles) out.insert(model);
  return out;
}

Result<ModelChoice> ReadModelRef(const EngineConfig& config, const std::string& ref) {
  if (ref.empty()) return InvalidArgument("the model is empty: " + Choices(config));
  if (auto a = config.aliases.find(ref); a != config.aliases.end()) {
    return ModelChoice{a->second.provider, a->second.model, false};
  }
  size_t slash = ref.find('/');
  std::string provider = ref.substr(0, slash);
  std::string model = slash == std::string::npos ? "" : ref.substr(slash + 1);
  bool configured = config.providers.count(provider) > 0;
  bool builtin = !configured && BuiltinProvider(provider).has_value();
  if (!configured && !builtin) {
    if (slash == std::string::npos) return ReadBareModel(config, ref);
    return NotFound("unknown provider '" + provider + "' in model '" + ref +
                    "': " + Choices(config));
  }
  if (slash != std::string::npos && model.empty()) {
    return InvalidArgument("model '" + ref + "' names no model after '" + provider + "/': write " +
                           provider + "/<model>, or " + provider + " alone for its default model");
  }
  return ModelChoice{provider, model, builtin};
}

Result<ModelAlias> ResolveModel(const EngineConfig& config, const std::string& model_ref) {
  auto choice = ReadModelRef(config, model_ref);
  if (!choice.ok()) return choice.status();
  if (choice->builtin) {
    return NotFound("provider '" + choice->provider + "' (model '" + model_ref +
                    "') is not configured here: add [providers." + choice->provider +
                    "] to the config; " + Choices(config));
  }
  return ModelAlias{choice->provider, choice->model};
}

}  // namespace structure::config
