// libFuzzer target: JSON text (base/json_parse.cc), the parser behind every request body,
// schema file, batch line, MCP message and provider reply. A text that parses must write back
// as valid UTF-8, parse again to an equal value, and JsonTextSize must match the written size.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/json.h"
#include "base/utf8.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  structure::ParseOptions options;
  options.max_depth = 64;
  auto parsed = structure::ParseJson(text, options);
  if (!parsed.ok()) {
    if (structure::Utf8ErrorAt(parsed.status().message()) != std::string_view::npos)
      __builtin_trap();
    return 0;
  }
  std::string written = structure::ToJson(*parsed);
  if (structure::Utf8ErrorAt(written) != std::string_view::npos) __builtin_trap();
  if (structure::JsonTextSize(*parsed) != written.size()) __builtin_trap();
  auto again = structure::ParseJson(written, options);
  if (!again.ok() || !(*again == *parsed)) __builtin_trap();
  if (structure::ToJson(*again, true).empty()) __builtin_trap();
  return 0;
}
