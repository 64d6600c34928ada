// The configuration behind the public Config (structure/config.h), for the engine and the
// commands that read or build it as config::EngineConfig.
#pragma once

#include "config/engine_config.h"
#include "structure/config.h"

namespace structure {

struct ConfigInternal {
  // The configuration a Config holds. Valid while `config` (or a copy of it) lives.
  static const config::EngineConfig& Of(const Config& config);

  // A Config holding `config` as it is (no checks: Engine::Create and Engine::Check make them).
  static Config Wrap(config::EngineConfig config);
};

}  // namespace structure
