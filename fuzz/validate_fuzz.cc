// libFuzzer target for the validator. Input: a schema JSON text, a 0x00 byte, an instance JSON
// text (without the separator both are the whole input). Inputs starting with "R:" fuzz the
// ECMA-262 -> RE2 translation and the backtracking engine instead (pattern, 0x00, subject).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <simdjson.h>

#include "pipeline/validator/regex.h"
#include "pipeline/validator/validator.h"

using structure::pipeline::CompileSchema;
using structure::pipeline::EcmaRegex;
using structure::pipeline::ElementToJson;
using structure::pipeline::ValidatorOptions;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  size_t split = input.find('\0');
  std::string_view first = split == std::string_view::npos ? input : input.substr(0, split);
  std::string_view second = split == std::string_view::npos ? input : input.substr(split + 1);
  if (input.starts_with("R:")) {
    auto regex = EcmaRegex::Compile(first.substr(2), 20000);
    if (regex.ok()) {
      bool limit = false;
      (*regex)->Search(second, &limit);
    }
    structure::pipeline::IsValidEcmaRegex(first.substr(2));
    return 0;
  }
  simdjson::dom::parser parser;
  simdjson::dom::element schema_doc;
  if (parser.parse(first.data(), first.size()).get(schema_doc) != simdjson::SUCCESS) return 0;
  ValidatorOptions options;
  options.max_depth = 200;
  options.max_eval_steps = 200000;
  options.max_regex_steps = 20000;
  auto validator = CompileSchema(ElementToJson(schema_doc), options);
  if (!validator.ok()) return 0;
  auto all = (*validator)->ValidateText(second, true);
  auto first_error = (*validator)->ValidateText(second, false);
  if (all.ok() != first_error.ok()) __builtin_trap();
  if (all.ok() && all->valid != first_error->valid) __builtin_trap();
  if (all.ok() && all->valid != all->errors.empty()) __builtin_trap();
  return 0;
}
