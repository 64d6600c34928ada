// POST /v1/schemas/{name}/check: what a PUT of the same body would answer, and why, without
// storing anything: whether our validator compiles the schema (strictly, as PUT does), whether
// the version and compatibility rules accept it (registry/schema_compat.h), and how each
// configured provider would be asked for it (provider_check.h). The console's registry editor
// calls it as the user types.
#pragma once

#include "base/json.h"
#include "engine/engine.h"
#include "registry/registered_schema.h"

namespace structure::server {

// `schema` is the parsed record.schema.
// {"accepted": bool, "problem"?: PUT's error message,
//  "validator": {"ok": bool, "errors": [message]},
//  "compatibility": {"ok": bool, "message": text},
//  "providers": [ProviderVerdictsJson]}
Json SchemaCheckReport(Engine& engine, const registry::Scope& scope,
                       const registry::SchemaRecord& record, const Json& schema);

}  // namespace structure::server
