// JSON helpers inside the engine, beside the public Json value (structure/json.h): text size
// without writing, splicing text into a serialization, string literals.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "structure/json.h"
#include "structure/status.h"

namespace structure {

// ToJson(value).size(), counted without building the text.
size_t JsonTextSize(const Json& value);

// Compact text `text` written in place of the node `at` of a tree being serialized: a large
// value that is already text (a shared schema sent with every call) is not copied into the
// tree and written again. `at` must point into the tree passed to ToJsonSpliced.
struct JsonSplice {
  const Json* at;
  std::string_view text;
};
// ToJson(value) (compact), with each spliced node replaced by its text.
std::string ToJsonSpliced(const Json& value, std::span<const JsonSplice> splices);

// Appends a JSON string literal (with quotes and escapes) for s to out.
void AppendJsonString(std::string& out, std::string_view s);

}  // namespace structure
