#include "actors/engine_context.h"

#include "config/settings.h"
#include "providers/models.h"
#include "providers/thinking.h"

namespace structure::actors {

std::shared_ptr<const CheckCommand> CheckFor(const EngineContext& ctx, const std::string& tenant) {
  auto it = ctx.checks.find(tenant);
  if (it == ctx.checks.end()) it = ctx.checks.find("");
  return it == ctx.checks.end() ? nullptr : it->second;
}

void ResolveModelProfiles(ProviderHandle& h) {
  h.model_profiles.clear();
  for (const auto& [model, overrides] : h.config.model_profiles) {
    auto p = pipeline::ApplyProfileOverrides(*h.profile, overrides);
    if (!p.ok()) {
      h.model_profiles.emplace(model, InvalidArgument("providers." + h.config.name + ".models." +
                                                      model + ": " + p.status().message()));
    } else {
      h.model_profiles.emplace(model, std::make_shared<const pipeline::Profile>(std::move(*p)));
    }
  }
}

namespace {

// The model a reference names for the provider every call is forced to: an alias or
// "provider/model" of that provider gives its model; a reference to another configured provider
// (a config's structure.model) or an unconfigured "default:..." alias gives the forced provider's
// default; any other text is a model name of the forced provider ("gpt-4o", Ollama's
// "llama3.1:8b", OpenRouter's "openai/gpt-4o").
std::string ModelForOverride(const EngineContext& ctx, const std::string& model_ref) {
  const std::string& forced = ctx.provider_override;
  if (auto a = ctx.config.aliases.find(model_ref); a != ctx.config.aliases.end()) {
    return a->second.provider == forced ? a->second.model : "";
  }
  if (model_ref == forced || model_ref.rfind("default:", 0) == 0) return "";  // built-in aliases
  if (model_ref.rfind(forced + "/", 0) == 0) return model_ref.substr(forced.size() + 1);
  std::string first = model_ref.substr(0, model_ref.find('/'));
  if (ctx.config.providers.count(first)) return "";
  return model_ref;
}

}  // namespace

Result<Target> ResolveTarget(const EngineContext& ctx, const std::string& model_ref) {
  config::ModelAlias alias;
  if (!ctx.provider_override.empty()) {
    alias.provider = ctx.provider_override;
    alias.model = ModelForOverride(ctx, model_ref);
  } else {
    auto resolved = config::ResolveModel(ctx.config, model_ref);
    if (!resolved.ok()) return resolved.status();
    alias = *resolved;
  }
  auto it = ctx.providers.find(alias.provider);
  if (it == ctx.providers.end()) return NotFound("unknown provider '" + alias.provider + "'");
  if (!it->second.unusable.ok()) return it->second.unusable;
  Target t;
  t.provider = &it->second;
  t.model = alias.model.empty() ? it->second.config.model : alias.model;
  if (t.model.empty()) t.model = "default";
  t.profile = it->second.profile;
  t.settings = config::ModelSettingsFor(it->second.config, t.model);
  if (auto m = it->second.model_profiles.find(t.model); m != it->second.model_profiles.end()) {
    if (!m->second.ok()) return m->second.status();
    t.profile = *m->second;
  }
  return t;
}

void ApplyTarget(const Target& target, pipeline::LoopSpec& spec) {
  const config::ModelSettings& m = target.settings;
  if (m.reasoning_effort) spec.thinking.effort = *m.reasoning_effort;
  if (m.thinking_budget) spec.thinking.budget = *m.thinking_budget;
  spec.max_tokens = providers::OutputCap(
      providers::FamilyFor(target.provider->endpoint, target.model), target.model, spec.thinking,
      spec.plan->max_tokens, m.max_output_tokens.value_or(0));
  const std::string& provider = target.provider->config.name;
  spec.cap_setting =
      target.provider->config.models.count(target.model)
          ? "providers." + provider + ".models.\"" + target.model + "\".max_output_tokens"
          : "max_output_tokens in [providers." + provider + "] or [providers." + provider +
                ".models.\"" + target.model + "\"]";
  spec.cap_setting += " (now " + std::to_string(spec.max_tokens) + ")";
}

}  // namespace structure::actors
