// The one character set of every identifier a user gives the engine: tenant and project ids
// (flags, request bodies, configuration) and, narrowed further, schema names
// (registry/schema_name.h). An id may end up in a file name, a URL path, a log line or an
// origin string ("registry:tenant:<id>"), so it is plain: 1..kMaxIdLength characters, each a
// letter, a digit or one of - _ . : @, and never "." or ".." alone (which name folders).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "structure/status.h"

namespace structure {

inline constexpr size_t kMaxIdLength = 128;

// A letter (A-Z, a-z), a digit or one of "-_.:@".
bool IsIdChar(char c);

// OK, or kInvalidArgument "<what>: \"<id>\" has '/' at position 2 (an id is ...)", naming the
// first wrong character (a control or non-ASCII byte as "byte \xNN") and its 0-based position,
// or the length. `what` is the user's name for the id: "--tenant", "tenant", "project id".
Status CheckId(std::string_view id, std::string_view what);

// What is wrong with id, as CheckId says it without "<what>: "; "" when it is an id.
std::string IdProblem(std::string_view id);

// The rule in words, for messages and help: "1..128 letters, digits and - _ . : @, not . or ..".
std::string IdRule();

// A character for a message: 'x' when printable ASCII, else "byte \xNN".
std::string DescribeIdChar(char c);

// The id for a message: quoted, printable ASCII kept, other bytes as '?', cut at 80.
std::string ShowId(std::string_view id);

}  // namespace structure
