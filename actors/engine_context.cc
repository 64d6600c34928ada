#include "actors/engine_context.h"

#include "config/settings.h"

namespace structure::actors {

Result<Target> ResolveTarget(const EngineContext& ctx, const std::string& model_ref) {
  config::ModelAlias alias;
  if (!ctx.provider_override.empty()) {
    alias.provider = ctx.provider_override;
    auto resolved = config::ResolveModel(ctx.config, model_ref);
    if (resolved.ok() && resolved->provider == ctx.provider_override) alias.model = resolved->model;
  } else {
    auto resolved = config::ResolveModel(ctx.config, model_ref);
    if (!resolved.ok()) return resolved.status();
    alias = *resolved;
  }
  auto it = ctx.providers.find(alias.provider);
  if (it == ctx.providers.end()) return NotFound("unknown provider '" + alias.provider + "'");
  Target t;
  t.provider = &it->second;
  t.model = alias.model.empty() ? it->second.config.model : alias.model;
  if (t.model.empty()) t.model = "default";
  t.profile = it->second.profile;
  if (auto m = it->second.config.model_profiles.find(t.model);
      m != it->second.config.model_profiles.end()) {
    auto p = pipeline::ApplyProfileOverrides(t.profile, m->second);
    if (!p.ok()) {
      return InvalidArgument("providers." + alias.provider + ".models." + t.model + ": " +
                             p.status().message());
    }
    t.profile = std::move(*p);
  }
  return t;
}

}  // namespace structure::actors
