// The settings cascade: built-in defaults -> config file -> tenant -> project -> request.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "config/engine_config.h"
#include "config/model_ref.h"  // ResolveModel
#include "structure/status.h"

namespace structure::config {

using structure::EvidenceModeName;  // structure/evidence.h
using structure::ParseEvidenceMode;

// Applies `over` on top of `base` (set fields win).
Settings ApplyOverride(Settings base, const SettingsOverride& over);

// The effective settings for a request in scope (tenant, project may be empty). An unknown
// tenant or project simply contributes nothing. The result is checked: kInvalidArgument names
// the level and field of a bad value, e.g. "request: maxLoops must be 1..10 (was 12)".
Result<Settings> ResolveSettings(const EngineConfig& config, const std::string& tenant,
                                 const std::string& project, const SettingsOverride& request);

// Checks one level's values; `where` prefixes the message ("tenant acme").
Status CheckOverride(const SettingsOverride& over, const std::string& where);

// The settings of `model` on `provider`: the model's own table over the provider's (a model
// table that sets reasoning_effort or thinking_budget replaces both of the provider's).
ModelSettings ModelSettingsFor(const ProviderConfig& provider, const std::string& model);

}  // namespace structure::config
