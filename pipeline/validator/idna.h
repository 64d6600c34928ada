// IDNA A-labels ("xn--..." host name labels): Punycode decoding (RFC 3492) and the IDNA2008
// rules the JSON Schema test suite exercises (RFC 5891/5892: no leading combining mark, no
// "--" in positions 3-4, DISALLOWED exceptions, CONTEXTJ/CONTEXTO rules).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace structure::pipeline {

// Decodes the part after "xn--"; false on malformed input.
bool DecodePunycode(std::string_view input, std::u32string* output);

// True when label (which starts with "xn--", any case) is a valid A-label.
bool IsValidALabel(std::string_view label);

}  // namespace structure::pipeline
