// The effective configuration as JSON, for `structure config check`.
#pragma once

#include "base/json.h"
#include "config/engine_config.h"

namespace structure::config {

// API keys are never included: for each provider it shows the environment variable's name and
// whether it is set ("apiKey": "set" | "not set").
Json ConfigToJson(const EngineConfig& config);

}  // namespace structure::config
