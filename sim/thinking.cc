#include "sim/thinking.h"

#include <algorithm>

#include "base/hash.h"
#include "base/hex.h"
#include "sim/model_checks.h"
#include "sim/rng.h"

namespace structure::sim {

int64_t EffortTokens(std::string_view effort) {
  if (effort == "none") return 0;
  if (effort == "minimal") return 64;
  if (effort == "low") return 256;
  if (effort == "high") return 4096;
  if (effort == "xhigh" || effort == "max") return 8192;
  return 1024;
}

int64_t BudgetTokens(int64_t budget) {
  if (budget < 0) return 1024;
  return std::min<int64_t>(budget, 1024);
}

bool ReportsThinkingTokens(std::string_view model) {
  return FamilyOf(providers::ProviderKind::kAnthropic, model).reports_thinking_tokens;
}

std::string Signature(std::string_view what) {
  // Base64 text, as the providers' signatures are ("c2ltc2ln" is "simsig").
  return "c2ltc2ln" + Hex64(Fnv1a64(what, Fnv1a64("structure sim")));
}

bool ValidSignature(std::string_view what, std::string_view signature) {
  return signature == Signature(what);
}

}  // namespace structure::sim
