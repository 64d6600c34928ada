#include "providers/thinking.h"

namespace structure::providers {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

bool ThinksByDefault(ProviderKind kind, std::string_view model) {
  if (StartsWith(model, "models/")) model.remove_prefix(7);
  switch (kind) {
    case ProviderKind::kOpenAi:
      return StartsWith(model, "o1") || StartsWith(model, "o3") || StartsWith(model, "o4") ||
             StartsWith(model, "gpt-5");
    case ProviderKind::kGemini:
      return StartsWith(model, "gemini-2.5") || StartsWith(model, "gemini-3");
    default:
      return false;
  }
}

int64_t ThinkingAllowance(std::string_view effort) {
  if (effort == "none") return 0;
  if (effort == "minimal") return 1024;
  if (effort == "low") return 4096;
  if (effort == "high") return 16384;
  if (effort == "xhigh" || effort == "max") return 32768;
  return 8192;
}

int64_t OutputCap(ProviderKind kind, std::string_view model, const Thinking& thinking,
                  int64_t answer_cap, int64_t configured) {
  if (configured > 0) return configured;
  if (thinking.budget) {
    return answer_cap + (*thinking.budget < 0 ? ThinkingAllowance("medium") : *thinking.budget);
  }
  if (!thinking.effort.empty()) return answer_cap + ThinkingAllowance(thinking.effort);
  if (ThinksByDefault(kind, model)) return answer_cap + ThinkingAllowance("medium");
  return answer_cap;
}

}  // namespace structure::providers
