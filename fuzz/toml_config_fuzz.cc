// libFuzzer target: the TOML config file (config/load_config.cc): parse, check, and render a
// config that loads.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "config/config_json.h"
#include "config/load_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto config = structure::config::ParseConfig(text, "fuzz.toml");
  if (!config.ok()) return 0;
  (void)structure::config::CheckConfig(*config);
  (void)structure::ToJson(structure::config::ConfigToJson(*config));
  return 0;
}
