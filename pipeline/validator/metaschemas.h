// Internal: the draft 2020-12 and draft-07 meta-schema documents, written from the
// specifications, so that "$ref" and "$schema" to them resolve without network access.
#pragma once

#include <string_view>

namespace structure::pipeline::validator_internal {

// The JSON text of a built-in meta-schema by its URI (without fragment), or nullptr.
const char* BuiltinMetaschema(std::string_view uri);

}  // namespace structure::pipeline::validator_internal
