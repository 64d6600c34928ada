#include "providers/prompt_cache.h"

namespace structure::providers {
namespace {

bool Has(std::string_view model, std::string_view part) {
  return model.find(part) != std::string_view::npos;
}

int64_t AnthropicMinimum(std::string_view m) {
  if (Has(m, "opus-4-5") || Has(m, "opus-4.5") || Has(m, "opus-4-6") || Has(m, "opus-4.6") ||
      Has(m, "haiku-4-5") || Has(m, "haiku-4.5")) {
    return 4096;
  }
  if (Has(m, "claude-3-haiku") || Has(m, "claude-3-5-haiku") || Has(m, "claude-3.5-haiku") ||
      Has(m, "haiku-3")) {
    return 2048;
  }
  return 1024;
}

}  // namespace

int64_t DocumentedCacheMinTokens(ProviderKind kind, std::string_view model) {
  switch (kind) {
    case ProviderKind::kAnthropic:
      return AnthropicMinimum(model);
    case ProviderKind::kOpenAi:
      return 1024;
    case ProviderKind::kGemini:
      return Has(model, "2.5") ? 2048 : 4096;
    case ProviderKind::kOpenRouter:
      return Has(model, "claude") ? AnthropicMinimum(model) : 1024;
    case ProviderKind::kOllama:
    case ProviderKind::kOpenAiCompat:
    case ProviderKind::kVllm:
    case ProviderKind::kLlamaCpp:
    case ProviderKind::kLlamafile:
      return 0;
  }
  return 0;
}

int64_t EstimatePrefixTokens(const ProviderCall& call) {
  size_t bytes = call.system.size();
  if (!call.schema->is_null()) bytes += call.schema.text().size();
  if (call.need == NeedChannel::kTool) bytes += call.need_schema.text().size();
  return static_cast<int64_t>(bytes / 4);
}

bool ShouldMarkCachePrefix(const ProviderCall& call, ProviderKind kind) {
  if (call.cache_min_tokens < 0 || call.system.empty()) return false;
  int64_t minimum = call.cache_min_tokens > 0 ? call.cache_min_tokens
                                              : DocumentedCacheMinTokens(kind, call.model);
  return minimum > 0 && EstimatePrefixTokens(call) >= minimum;
}

}  // namespace structure::providers
