#include "config/config_internal.h"
#include "config/load_config.h"

namespace structure {

struct Config::Impl {
  config::EngineConfig value;
};

Config::Config() : impl_(std::make_shared<const Impl>(Impl{config::DefaultConfig()})) {}
Config::Config(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
Config::Config(const Config&) = default;
Config& Config::operator=(const Config&) = default;
Config::Config(Config&&) noexcept = default;
Config& Config::operator=(Config&&) noexcept = default;
Config::~Config() = default;

Result<Config> Config::Parse(std::string_view toml, const std::string& source) {
  auto parsed = config::ParseConfig(toml, source);
  if (!parsed.ok()) return parsed.status();
  return ConfigInternal::Wrap(std::move(*parsed));
}

Result<Config> Config::Load(const std::string& path) {
  auto loaded = config::LoadConfigFile(path);
  if (!loaded.ok()) return loaded.status();
  return ConfigInternal::Wrap(std::move(*loaded));
}

const config::EngineConfig& ConfigInternal::Of(const Config& config) { return config.impl_->value; }

Config ConfigInternal::Wrap(config::EngineConfig config) {
  return Config(std::make_shared<const Config::Impl>(Config::Impl{std::move(config)}));
}

}  // namespace structure
