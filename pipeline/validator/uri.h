// URI and JSON Pointer helpers for $id / $ref resolution (RFC 3986 section 5, RFC 6901).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace structure::pipeline {

// Resolves reference against base (RFC 3986 5.2, with dot-segment removal). Works for
// hierarchical URIs and for opaque ones such as "urn:uuid:..." (fragment-only references).
std::string ResolveUri(std::string_view base, std::string_view reference);

// Splits "a#b" into {"a", "b"}; the fragment is "" when absent.
std::pair<std::string, std::string> SplitFragment(std::string_view uri);

// "/a~1b/c" -> {"a/b", "c"} after percent-decoding (URI fragments); false on bad syntax.
bool ParsePointer(std::string_view pointer, std::vector<std::string>* tokens);

}  // namespace structure::pipeline
