// Shared setup for the registry tests: the shipped bundled schemas and small schema texts.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "base/read_file.h"
#include "registry/schema_registry.h"

namespace structure::registry {

inline const std::string kShippedSchemas = std::string(STRUCTURE_SOURCE_DIR) + "/registry/schemas";

// A user-action-record variant that also allows "source" (a compatible minor step of the
// bundled 1.0: a new optional property, the userId pattern and some required entries dropped);
// `marker` goes into its description so a test can tell which level answered.
inline std::string UarSchema(const std::string& marker) {
  return R"({"type":"object","description":")" + marker +
         R"(","properties":{"userId":{"type":"string"},"action":{"type":"string"},)"
         R"("timestamp":{"type":"string","format":"date-time"},)"
         R"("status":{"type":"string","enum":["success","failure"]},)"
         R"("tags":{"type":"array","items":{"type":"string"},"uniqueItems":true},)"
         R"("source":{"type":"string"}},"required":["userId"]})";
}

// The shipped schema `name` without its "x-version": a compatible override of the bundled
// level at any 1.x version.
inline std::string Bundled(const std::string& name) {
  auto text = ReadFile(kShippedSchemas + "/" + name + ".json");
  EXPECT_TRUE(text.ok()) << name;
  auto schema = ParseJson(text.ok() ? *text : "{}");
  EXPECT_TRUE(schema.ok()) << name;
  schema->erase("x-version");
  return ToJson(*schema);
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
