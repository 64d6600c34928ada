#include "sim/thinking.h"

#include <algorithm>
#include <cstdio>

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
  for (std::string_view older :
       {"claude-3", "claude-opus-4-0", "claude-opus-4-1", "claude-opus-4-2", "claude-opus-4-5",
        "claude-sonnet-4-0", "claude-sonnet-4-2", "claude-sonnet-4-5", "claude-haiku-4-5"}) {
    if (model.substr(0, older.size()) == older) return false;
  }
  return true;
}

std::string Signature(std::string_view what) {
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx",
                static_cast<unsigned long long>(HashBytes(what, HashBytes("structure sim"))));
  // Base64 text, as the providers' signatures are ("c2ltc2ln" is "simsig").
  return std::string("c2ltc2ln") + hex;
}

bool ValidSignature(std::string_view what, std::string_view signature) {
  return signature == Signature(what);
}

}  // namespace structure::sim
