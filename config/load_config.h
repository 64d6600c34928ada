// Loading the TOML configuration. The only place that includes toml++.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/engine_config.h"
#include "structure/status.h"

namespace structure::config {

// The provider used when no file names one, and where it expects `structure sim`.
inline constexpr const char* kSimulatorProvider = "simulator";
inline constexpr const char* kSimulatorBaseUrl = "http://127.0.0.1:8089/v1";

// The configuration used when no file is given: one provider "simulator" (kind openai, base URL
// http://127.0.0.1:8089/v1, profile openai-strict) and the aliases default:fast and
// default:analyze pointing at it.
EngineConfig DefaultConfig();

// Parses TOML text on top of DefaultConfig(). Providers named in the file replace the default
// simulator provider. Errors are kInvalidArgument:
//   syntax:      "<source>:<line>:<col>: <what is wrong>"
//   bad values:  "<source>: providers.openai.limits.max_concurrency: must be > 0 (was -1)"
// Unknown keys are errors too, so a typo never silently falls back to a default.
Result<EngineConfig> ParseConfig(std::string_view toml_text, const std::string& source);

// Reads and parses a file; kNotFound when it cannot be read.
Result<EngineConfig> LoadConfigFile(const std::string& path);

// Checks cross references (aliases -> providers, settings.model -> alias or provider/model).
Status CheckConfig(const EngineConfig& config);

// The provider kinds a config file may name, in the order docs/providers.md lists them:
// openai, anthropic, gemini, ollama, openai-compatible, openrouter, vllm, llamacpp, llamafile.
const std::vector<std::string_view>& ProviderKinds();
bool IsKnownProviderKind(std::string_view kind);

}  // namespace structure::config
