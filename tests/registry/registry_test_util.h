// Shared setup for the registry tests: the shipped bundled schemas and small schema texts.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "registry/schema_registry.h"

namespace structure::registry {

inline const std::string kShippedSchemas = std::string(STRUCTURE_SOURCE_DIR) + "/registry/schemas";

// A user-action-record variant that also allows "source"; `marker` goes into its description
// so a test can tell which level answered.
inline std::string UarSchema(const std::string& marker) {
  return R"({"type":"object","description":")" + marker +
         R"(","properties":{"userId":{"type":"string"},"source":{"type":"string"}},)"
         R"("required":["userId"]})";
}

inline SchemaRecord Record(const std::string& name, const std::string& version,
                           const std::string& schema, const std::string& manual = "") {
  return SchemaRecord{name, version, schema, manual};
}

// The "description" of a found schema, or "" when it has none.
inline std::string Marker(const RegisteredSchema& entry) {
  const Json* d = entry.schema.find("description");
  return d && d->is_string() ? d->as_string() : "";
}

inline std::unique_ptr<SchemaRegistry> OpenOrDie(const std::string& sqlite_path,
                                                 RegistryOptions options = {}) {
  auto opened = SchemaRegistry::Open(kShippedSchemas, sqlite_path, std::move(options));
  EXPECT_TRUE(opened.ok()) << opened.status().message();
  return opened.ok() ? std::move(opened).value() : nullptr;
}

}  // namespace structure::registry
