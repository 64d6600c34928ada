// Byte spans of members and elements inside JSON text, so the simulator can keep each request
// of a batch byte for byte as the client wrote it (its answer is seeded by those bytes, like a
// live request's). Expects well-formed JSON (the caller parses it first).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace structure::sim {

// The text of member `key` of the object `object_text` (top level only), or nullopt.
std::optional<std::string_view> RawMember(std::string_view object_text, std::string_view key);

// The texts of the elements of the array `array_text`; empty when it is not an array.
std::vector<std::string_view> RawElements(std::string_view array_text);

}  // namespace structure::sim
