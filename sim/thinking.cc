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
