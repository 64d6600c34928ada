// Syntax checks for the identifiers the registry accepts: schema names, tenant and project ids.
#pragma once

#include <string_view>

#include "structure/status.h"

namespace structure::registry {

// OK when name matches ^[a-z0-9][a-z0-9._-]{0,63}$; else kInvalidArgument saying which character
// or length rule failed.
Status ValidateSchemaName(std::string_view name);

// OK when id is 1..128 characters of [A-Za-z0-9._@-] and does not start with '.' or '-'. `what`
// ("tenant" or "project") names the id in the error message. Ids end up in origin strings and
// file-free SQL parameters; the rule keeps origins unambiguous and printable.
Status ValidateScopeId(std::string_view id, std::string_view what);

}  // namespace structure::registry
