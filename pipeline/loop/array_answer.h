// Array mode ({type: array, items: T}, for lists longer than one answer holds): the schema an item
// schema is wrapped into, and the records of answers given as a JSON array (possibly cut off at the
// token limit) or as JSON Lines (one record per line, with or without a code fence).
#pragma once

#include <optional>
#include <string_view>

#include "base/json.h"
#include "structure/status.h"

namespace structure::pipeline {

// True for {"type": "array", "items": ...}.
bool IsArraySchema(const Json& schema);

// The array-mode schema for `schema`: itself when IsArraySchema, else
// {"type": "array", "items": schema}. The item's "$schema" moves to the root; its $defs and
// definitions are hoisted to the root and its other local $refs ("#", "#/properties/...") are
// rewritten to point into "items", so every reference still finds its target. An item with its
// own "$id" is a resource of its own and is wrapped unchanged.
Json ArrayModeSchema(Json schema);

// Parses the complete elements of a possibly truncated JSON array text ("[{..},{..},{.." ->
// the first two). kInvalidArgument when no array starts in the text.
Result<Json> RecoverArrayPrefix(std::string_view text);

// The seam of a continuation: how many leading records of `next` repeat the last ones of `kept`
// (the largest k such that next[0..k) equals kept[size-k..size), each record deep-equal): 1 when
// the model wrote the last kept record again, all of `kept` when it started over.
size_t SeamOverlap(const Json::Array& kept, const Json::Array& next);

// Reads JSON Lines: after an optional ``` fence, every non-blank line is one JSON value. With
// `truncated`, a last line that does not parse is dropped (the answer was cut off there).
// nullopt when the text is not JSON Lines (a line that does not parse, a single line that is
// not an object, or no line at all); else the records as a JSON array.
std::optional<Json> ParseJsonLines(std::string_view text, bool truncated);

}  // namespace structure::pipeline
