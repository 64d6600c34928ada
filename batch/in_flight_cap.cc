#include "batch/in_flight_cap.h"

#include "config/settings.h"

namespace structure::batch {

InFlightCap CapOf(const config::EngineConfig& config, uint64_t concurrency,
                  const std::string& provider, const std::string& model) {
  InFlightCap cap;
  cap.concurrency = concurrency;
  std::string name = provider;
  if (name.empty()) {
    auto target = config::ResolveModel(config, model.empty() ? config.settings.model : model);
    if (!target.ok()) return cap;
    name = target->provider;
  }
  auto it = config.providers.find(name);
  if (it == config.providers.end()) return cap;
  cap.limit = it->second.limits.max_concurrency;
  cap.key = "providers." + name + ".limits.max_concurrency";
  cap.capped = concurrency > static_cast<uint64_t>(cap.limit);
  return cap;
}

std::string CapWarning(const InFlightCap& cap) {
  std::string limit = std::to_string(cap.limit);
  return "--concurrency " + std::to_string(cap.concurrency) + " is above " + cap.key + " = " +
         limit + ": at most " + limit +
         " calls are on the wire at once (raise it in the config file to go higher)";
}

std::string CapSummary(const InFlightCap& cap) {
  std::string text = ", at most " + std::to_string(cap.effective()) + " in flight";
  if (cap.capped) text += " (" + cap.key + ")";
  return text;
}

}  // namespace structure::batch
