#include "providers/prompt_cache.h"

namespace structure::providers {
int64_t DocumentedCacheMinTokens(ProviderKind kind, std::string_view model) {
  return ModelTable::Builtin()->Find(kind, model).cache_min_tokens;
}

int64_t EstimatePrefixTokens(const ProviderCall& call) {
  size_t bytes = call.system.size();
  if (!call.schema->is_null()) bytes += call.schema.text().size();
  if (call.need == NeedChannel::kTool) bytes += call.need_schema.text().size();
  return static_cast<int64_t>(bytes / 4);
}

bool ShouldMarkCachePrefix(const ProviderCall& call, const ModelFamily& family) {
  if (!family.cache_control || call.cache_min_tokens < 0 || call.system.empty()) return false;
  int64_t minimum = call.cache_min_tokens > 0 ? call.cache_min_tokens : family.cache_min_tokens;
  return minimum > 0 && EstimatePrefixTokens(call) >= minimum;
}

}  // namespace structure::providers
