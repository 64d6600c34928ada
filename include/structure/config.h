// Config: the engine's configuration (providers, their limits, model aliases, settings,
// tenants, stores), read from TOML. An immutable value: copies share one loaded configuration.
// The file format is described in docs/providers.md and examples/structure.toml.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "structure/status.h"

namespace structure {

class Config {
 public:
  // The built-in configuration: one provider "simulator" (kind openai, base URL
  // http://127.0.0.1:8089/v1, where `structure sim` listens) that the aliases default:fast and
  // default:analyze point at.
  Config();

  // Reads TOML text on top of the built-in configuration; providers the text names replace the
  // built-in one. Unknown keys are errors, so a typo never falls back to a default.
  // kInvalidArgument says where and what: "<source>:<line>:<col>: <what is wrong>" for syntax,
  // "<source>: providers.openai.limits.max_concurrency: must be > 0 (was -1)" for a value.
  // References between tables (an alias naming no provider) are checked by Engine::Check and
  // Engine::Create, with the flags that may add a provider.
  static Result<Config> Parse(std::string_view toml, const std::string& source = "<config>");

  // Parse on the contents of the file at `path`; kNotFound when it cannot be read.
  static Result<Config> Load(const std::string& path);

  Config(const Config&);
  Config& operator=(const Config&);
  Config(Config&&) noexcept;
  Config& operator=(Config&&) noexcept;
  ~Config();

 private:
  friend struct ConfigInternal;  // config/config_internal.h
  struct Impl;
  explicit Config(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

}  // namespace structure
