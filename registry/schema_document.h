// Turns schema text (a bundled file or a stored override) into the registry's form: a parsed
// Draft 2020-12 schema plus the version the document declares in its "x-version" keyword.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/json.h"
#include "structure/status.h"

namespace structure::registry {

// The registry's own keyword: a top-level string "MAJOR.MINOR" in a schema document. It is
// removed from the schema that lookups return, so providers and validators never see it.
inline constexpr const char kVersionKeyword[] = "x-version";

struct SchemaDocument {
  Json schema;          // an object or a boolean, without "x-version"
  std::string version;  // the "x-version" value; empty when the document has none
};

struct DocumentLimits {
  size_t max_schema_bytes = 1 << 20;  // 1 MiB of JSON text
  size_t max_depth = 128;             // nesting of arrays and objects
};

// Parses `text` as one JSON Schema document. `source` names it in errors ("invoice.json",
// "put invoice"). kInvalidArgument when the text is too large, is not JSON (with
// "source:line:col: ..."), is not an object or a boolean, or has an "x-version" that is not a
// "MAJOR.MINOR" string.
Result<SchemaDocument> ParseSchemaDocument(std::string_view text, const std::string& source,
                                           const DocumentLimits& limits);

}  // namespace structure::registry
