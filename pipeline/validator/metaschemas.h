// Internal: the meta-schema documents of every supported draft (2020-12 and draft-07 in
// metaschemas.cc; 2019-09, draft-06 and draft-04 in metaschemas_earlier.cc), written from the
// specifications, so that "$ref" and "$schema" to them resolve without network access.
#pragma once

#include <string_view>

namespace structure::pipeline::validator_internal {

// The JSON text of a built-in meta-schema by its URI (without fragment), or nullptr.
const char* BuiltinMetaschema(std::string_view uri);

// The same for draft-04, draft-06 and 2019-09 (BuiltinMetaschema looks here too).
const char* EarlierMetaschema(std::string_view uri);

}  // namespace structure::pipeline::validator_internal
