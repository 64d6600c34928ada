// Schema versions "MAJOR.MINOR" and the rule for changing them: a minor step is
// compatible and replaces the schema in place; a breaking change is a new schema name.
#pragma once

#include <string>
#include <string_view>

#include "structure/status.h"

namespace structure::registry {

struct SchemaVersion {
  int major = 0;
  int minor = 0;

  std::string ToString() const;  // "1.3"
  auto operator<=>(const SchemaVersion&) const = default;
};

// Parses "MAJOR.MINOR": two decimal numbers without sign, leading zeros or spaces, each at most
// 9 digits ("1.0", "2.13"). kInvalidArgument otherwise, quoting the text.
Result<SchemaVersion> ParseSchemaVersion(std::string_view text);

// Checks that `name` may move from version `from` to version `to`: the same MAJOR and a MINOR
// that does not go down (equal is a re-put of the same version and allowed). kInvalidArgument
// otherwise, naming the versions and suggesting a new name such as "<name>-v<major+1>".
Status CheckVersionChange(std::string_view name, const SchemaVersion& from,
                          const SchemaVersion& to);

}  // namespace structure::registry
