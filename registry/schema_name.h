// Syntax checks for the identifiers the registry accepts: schema names, tenant and project ids.
#pragma once

#include <string_view>

#include "structure/status.h"

namespace structure::registry {

// Schema names are ids (base/id.h) narrowed further: lower case, and no ':' or '@', which
// `schema:NAME@VERSION` uses. OK when name matches ^[a-z0-9][a-z0-9._-]{0,63}$; else
// kInvalidArgument saying which character or length rule failed.
Status ValidateSchemaName(std::string_view name);

// OK when id is an id by base/id.h (1..128 letters, digits and - _ . : @, not "." or ".."
// alone); else kInvalidArgument "<what> id ..." naming the wrong character. `what` ("tenant" or
// "project") names the id in the error message.
Status ValidateScopeId(std::string_view id, std::string_view what);

}  // namespace structure::registry
