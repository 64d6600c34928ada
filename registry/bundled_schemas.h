// The schemas shipped with the engine: a directory of <name>.json files, each with an optional
// <name>.manual.md, loaded once at start and read-only afterwards.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "registry/registered_schema.h"
#include "registry/schema_document.h"
#include "structure/status.h"

namespace structure::registry {

// Loads every <name>.json in `dir` (not recursive) with origin "registry:bundled". The version
// is the document's "x-version" ("1.0" when absent); the manual is <name>.manual.md (empty when
// absent). Files starting with '_' are reserved for engine internals (e.g. a builder
// meta-schema) and skipped. Errors name the file: kNotFound when `dir` is not a readable
// directory; kInvalidArgument for a bad name, a file over a limit, invalid JSON (with line and
// column), a schema that is not an object or boolean, or a bad "x-version".
Result<std::map<std::string, RegisteredSchema>> LoadBundledSchemas(const std::string& dir,
                                                                   const DocumentLimits& limits,
                                                                   size_t max_manual_bytes);

}  // namespace structure::registry
