// The in-flight cap of a live `structure batch` job: --concurrency K, unless the provider every
// default line goes to allows fewer calls at once (providers.NAME.limits.max_concurrency). The
// job then still starts K records, but at most that many are on the wire.
#pragma once

#include <cstdint>
#include <string>

#include "config/engine_config.h"

namespace structure::batch {

struct InFlightCap {
  uint64_t concurrency = 0;  // --concurrency K
  bool capped = false;       // the provider's max_concurrency is below K
  int limit = 0;             // that max_concurrency (when the provider is known)
  std::string key;           // "providers.NAME.limits.max_concurrency"

  // The calls on the wire at once at most.
  uint64_t effective() const { return capped ? static_cast<uint64_t>(limit) : concurrency; }
};

// The cap for `concurrency` calls to `provider` (the --provider override; "" = the provider
// `model` resolves to, or the configured default model when `model` is "" too). Not capped when
// the provider cannot be resolved: the engine says why at the first call.
InFlightCap CapOf(const config::EngineConfig& config, uint64_t concurrency,
                  const std::string& provider, const std::string& model);

// The warning printed before the job when capped: "--concurrency 64 is above
// providers.x.limits.max_concurrency = 8: at most 8 calls are on the wire at once (...)".
std::string CapWarning(const InFlightCap& cap);

// The summary's tail: ", at most 8 in flight (providers.x.limits.max_concurrency)".
std::string CapSummary(const InFlightCap& cap);

}  // namespace structure::batch
