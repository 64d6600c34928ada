// Base64 (RFC 4648 section 4, the standard alphabet with "=" padding): the one encoder and
// decoder, for files sent to providers and files received in requests.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace structure {

// `bytes` as padded base64 text.
std::string Base64Encode(std::string_view bytes);

// The bytes `text` encodes; nullopt when it is not base64: a byte outside the alphabet, a
// length that padding cannot explain, or "=" before the end. ASCII whitespace (line breaks of
// MIME-wrapped text) is skipped; missing trailing padding is accepted.
std::optional<std::string> Base64Decode(std::string_view text);

}  // namespace structure
