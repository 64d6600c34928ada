#include "config/builtin_providers.h"

#include "providers/kinds.h"
#include "providers/openai_compat/known_servers.h"

namespace structure::config {

std::string DefaultProfileFor(std::string_view kind, std::string_view base_url) {
  const providers::KindInfo* k = providers::FindKind(kind);
  if (k && k->families == providers::ProviderKind::kOpenAiCompat && !base_url.empty()) {
    if (const providers::KnownServer* s = providers::KnownServerAt(base_url)) return s->profile;
  }
  return std::string(k ? k->profile : providers::InfoOf(providers::ProviderKind::kOpenAi).profile);
}

std::optional<ProviderConfig> BuiltinProvider(std::string_view name) {
  const providers::KindInfo* k = providers::FindKind(name);
  if (k == nullptr || k->builtin_model.empty() || name != k->name) return std::nullopt;
  ProviderConfig p;
  p.name = std::string(k->name);
  p.kind = std::string(k->name);
  p.model = std::string(k->builtin_model);
  p.profile = std::string(k->profile);
  return p;
}

bool BuiltinNeedsBaseUrl(std::string_view name) {
  const providers::KindInfo* k = providers::FindKind(name);
  return k != nullptr && name == k->name && !k->builtin_model.empty() && k->builtin_needs_base_url;
}

const std::vector<std::string>& BuiltinProviderNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const providers::KindInfo& k : providers::Kinds()) {
      if (!k.builtin_model.empty()) v.emplace_back(k.name);
    }
    return v;
  }();
  return names;
}

}  // namespace structure::config
