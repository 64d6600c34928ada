// Local `$ref` resolution shared by the generator, lowering and the strict checker.
#pragma once

#include <string>
#include <string_view>

#include "base/json.h"

namespace structure::pipeline {

// Resolves a `$ref` against the document `root`: "#", "#/json/pointer" (with ~0, ~1 and
// percent escapes), "#anchor" ($anchor, or a draft-04/07 id of the form "#anchor"), and refs that
// start with the root's own $id/id. Returns nullptr when the target is not inside root (remote
// refs, refs relative to nested $id). The result points into root.
const Json* ResolveLocalRef(const Json& root, std::string_view ref);

// Resolves an RFC 6901 JSON pointer ("" or "/a/0"); nullptr when absent or when the text is no
// pointer (base/json_pointer.h).
const Json* ResolvePointer(const Json& root, std::string_view pointer);

}  // namespace structure::pipeline
