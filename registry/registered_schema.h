// The plain value types of the schema registry: where a lookup happens (Scope), what a caller
// stores (SchemaRecord) and what a lookup returns (RegisteredSchema, with its origin).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/json.h"

namespace structure::registry {

// Who is asking. Empty tenant = bundled schemas only. A project always belongs to its tenant:
// tenant "a" project "p" and tenant "b" project "p" are unrelated. A project without a tenant is
// invalid.
struct Scope {
  std::string tenant;
  std::string project;
};

// One schema as a caller stores it at a tenant or project scope.
struct SchemaRecord {
  std::string name;     // ^[a-z0-9][a-z0-9._-]{0,63}$
  std::string version;  // "MAJOR.MINOR"; may be empty when the schema carries "x-version"
  std::string schema;   // JSON text: an object or a boolean (Draft 2020-12)
  std::string manual;   // markdown for the system prompt; may be empty
};

// One schema as a lookup or a listing returns it.
struct RegisteredSchema {
  std::string name;
  Json schema;          // the schema without the registry's "x-version" keyword
  std::string manual;   // may be empty
  std::string version;  // "MAJOR.MINOR"
  // "registry:bundled" | "registry:tenant:<id>" | "registry:project:<id>"; this is the
  // schemaOrigin of a request result.
  std::string origin;
  int64_t updated_at_ms = 0;  // unix milliseconds of the last put; 0 for bundled schemas
  // List() only: origins of the entries this one hides, nearest first (e.g. a project entry
  // that overrides a tenant and a bundled schema of the same name lists both).
  std::vector<std::string> shadows;
};

inline constexpr const char kBundledOrigin[] = "registry:bundled";

// "registry:tenant:<id>" / "registry:project:<id>".
inline std::string TenantOrigin(const std::string& tenant) { return "registry:tenant:" + tenant; }
inline std::string ProjectOrigin(const std::string& project) {
  return "registry:project:" + project;
}

}  // namespace structure::registry
