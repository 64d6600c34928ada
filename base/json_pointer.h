// JSON Pointer (RFC 6901): building a pointer from reference tokens and reading one back. The
// one place that knows the escapes: "~" is written "~0" and "/" is written "~1"; any other
// character after "~" makes the text no pointer at all (RFC 6901 section 3), so the readers
// refuse it rather than guess.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace structure {

// One reference token, escaped: "a/b~c" -> "a~1b~0c".
std::string EscapePointerToken(std::string_view token);

// Appends "/" and the escaped token to `pointer`.
void AppendPointerToken(std::string& pointer, std::string_view token);

// One escaped reference token, read back: "a~1b~0c" -> "a/b~c". nullopt when a "~" is not
// followed by "0" or "1" ("~2", a trailing "~").
std::optional<std::string> UnescapePointerToken(std::string_view escaped);

// The reference tokens of a pointer, unescaped: "" -> {} (the whole document), "/" -> {""},
// "/a~1b/0" -> {"a/b", "0"}. nullopt when the text is no JSON pointer: it does not start with
// "/" or has a bad escape.
std::optional<std::vector<std::string>> SplitPointer(std::string_view pointer);

}  // namespace structure
