// libFuzzer target: the ECMA-262 pattern translator (JSON Schema `pattern`: ECMA-262 -> RE2,
// or the backtracking engine for what RE2 cannot express). Input: pattern, a 0x00 byte, the
// subject to search (without the separator the input is both).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pipeline/validator/regex.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t split = input.find('\0');
  std::string_view pattern = split == std::string_view::npos ? input : input.substr(0, split);
  std::string_view subject = split == std::string_view::npos ? input : input.substr(split + 1);
  bool valid = structure::pipeline::IsValidEcmaRegex(pattern);
  auto regex = structure::pipeline::EcmaRegex::Compile(pattern, 20000);
  if (regex.ok()) {
    bool limit = false;
    (void)(*regex)->Search(subject, &limit);
  }
  (void)valid;
  return 0;
}
