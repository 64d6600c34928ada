#include "server/console/provider_check.h"

#include "config/builtin_providers.h"
#include "pipeline/lowering/lower.h"
#include "providers/kinds.h"
#include "providers/models.h"

namespace structure::server {
namespace {

// The profile the engine lowers for on this provider's default model (actors/provider_setup.cc
// and engine_context.cc apply the same overrides).
Result<pipeline::Profile> ProfileOf(const config::ProviderConfig& pc, std::string* name) {
  *name = pc.profile.empty() ? config::DefaultProfileFor(pc.kind, pc.base_url) : pc.profile;
  auto profile = pipeline::FindProfile(*name);
  if (!profile.ok()) return profile.status();
  if (pc.profile_overrides.is_object()) {
    profile = pipeline::ApplyProfileOverrides(std::move(*profile), pc.profile_overrides);
    if (!profile.ok()) return profile.status();
  }
  if (auto m = pc.model_profiles.find(pc.model); m != pc.model_profiles.end()) {
    profile = pipeline::ApplyProfileOverrides(std::move(*profile), m->second);
  }
  return profile;
}

}  // namespace

std::vector<ProviderVerdict> CheckProviders(const config::EngineConfig& config,
                                            const Json& schema) {
  std::vector<ProviderVerdict> out;
  auto table = providers::ModelTable::WithOverrides(config.model_families);
  for (const auto& [name, pc] : config.providers) {
    ProviderVerdict v;
    v.provider = name;
    v.model = pc.model;
    auto profile = ProfileOf(pc, &v.profile);
    if (!profile.ok()) {
      v.mode = "fallback";
      v.reason = profile.status().message();
      out.push_back(std::move(v));
      continue;
    }
    auto lowered = pipeline::Lower(schema, *profile);
    if (!lowered.ok()) {
      v.mode = "fallback";
      v.reason = lowered.status().message();
    } else {
      v.mode = lowered->strict ? "strict" : "fallback";
      v.reason = lowered->reason;
      for (const auto& d : lowered->dropped) v.dropped.push_back({d.path, d.keyword});
    }
    // A model without structured outputs is asked the prompted way (the engine's PlanOptionsOf).
    const providers::KindInfo* kind = providers::FindKind(pc.kind);
    if (v.mode == "strict" && kind && table.ok()) {
      std::string why =
          providers::NoStructuredOutputsReason((*table)->Find(kind->kind, pc.model), pc.model);
      if (!why.empty()) {
        v.mode = "fallback";
        v.reason = std::move(why);
        v.dropped.clear();
      }
    }
    out.push_back(std::move(v));
  }
  return out;
}

Json ProviderVerdictsJson(const std::vector<ProviderVerdict>& verdicts) {
  Json list = Json::MakeArray();
  for (const auto& v : verdicts) {
    Json dropped = Json::MakeArray();
    for (const auto& d : v.dropped) {
      dropped.push_back(Json(Json::Object{{"path", Json(d.path)}, {"keyword", Json(d.keyword)}}));
    }
    list.push_back(Json(Json::Object{{"provider", Json(v.provider)},
                                     {"model", Json(v.model)},
                                     {"profile", Json(v.profile)},
                                     {"mode", Json(v.mode)},
                                     {"reason", Json(v.reason)},
                                     {"dropped", std::move(dropped)}}));
  }
  return list;
}

}  // namespace structure::server
