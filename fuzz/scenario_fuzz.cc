// libFuzzer target: simulator scenario files (sim/scenario.cc, docs/simulator.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)structure::sim::ParseScenario(text, "fuzz.json");
  return 0;
}
