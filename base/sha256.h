// SHA-256 (FIPS 180-4): the server compares API keys against the hashes stored in the config, so
// the config never holds a usable key.
#pragma once

#include <string>
#include <string_view>

namespace structure {

// The lowercase hex digest (64 characters) of `data`.
std::string Sha256Hex(std::string_view data);

// Compares two strings in time that depends only on their lengths (for digests).
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace structure
