#include "registry/bundled_schemas.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/read_file.h"
#include "registry/schema_version.h"
#include "tests/registry/temp_dir.h"

namespace structure::registry {
namespace {

const std::string kShipped = std::string(STRUCTURE_SOURCE_DIR) + "/registry/schemas";
const std::string kData = std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/registry";

Result<std::map<std::string, RegisteredSchema>> Load(const std::string& dir) {
  return LoadBundledSchemas(dir, DocumentLimits{}, 256 * 1024);
}

TEST(BundledSchemasTest, ShipsTheSeedSchemasAndTheCommonOnes) {
  auto loaded = Load(kShipped);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  for (const char* name : {"user-action-record", "insight-record", "contact", "invoice",
                           "support-ticket", "meeting-notes", "event"}) {
    EXPECT_TRUE(loaded->count(name)) << name;
  }
}

TEST(BundledSchemasTest, EveryShippedSchemaIsAVersionedObjectWithAManual) {
  auto loaded = Load(kShipped);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ASSERT_GE(loaded->size(), 7u);
  for (const auto& [name, entry] : *loaded) {
    SCOPED_TRACE(name);
    EXPECT_EQ(entry.name, name);
    EXPECT_EQ(entry.origin, "registry:bundled");
    EXPECT_EQ(entry.updated_at_ms, 0);
    ASSERT_TRUE(entry.schema.is_object());
    EXPECT_FALSE(entry.schema.contains("x-version")) << "the registry keyword must be stripped";
    const Json* dialect = entry.schema.find("$schema");
    ASSERT_NE(dialect, nullptr);
    EXPECT_EQ(dialect->as_string(), "https://json-schema.org/draft/2020-12/schema");
    const Json* title = entry.schema.find("title");
    ASSERT_NE(title, nullptr);
    EXPECT_EQ(title->as_string(), name);
    EXPECT_EQ(entry.schema.find("type")->as_string(), "object");
    EXPECT_TRUE(entry.schema.contains("required"));
    EXPECT_TRUE(ParseSchemaVersion(entry.version).ok()) << entry.version;
    // The manual opens with a heading naming the schema.
    EXPECT_EQ(entry.manual.rfind("# " + name + "\n", 0), 0u) << entry.manual.substr(0, 40);
    // Every file under the raw document carries "x-version" explicitly.
    auto raw = ReadFile(kShipped + "/" + name + ".json");
    ASSERT_TRUE(raw.ok());
    auto doc = ParseJson(*raw);
    ASSERT_TRUE(doc.ok());
    ASSERT_NE(doc->find("x-version"), nullptr);
    EXPECT_EQ(doc->find("x-version")->as_string(), entry.version);
  }
}

// Every required property of each shipped schema is declared, and the example record under
// tests/data/registry/examples has every required key and no undeclared one (the schemas are
// closed). Full validation of the examples belongs to the validator's tests.
TEST(BundledSchemasTest, ExamplesMatchTheShapeOfEachShippedSchema) {
  auto loaded = Load(kShipped);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  for (const auto& [name, entry] : *loaded) {
    SCOPED_TRACE(name);
    auto text = ReadFile(kData + "/examples/" + name + ".json");
    ASSERT_TRUE(text.ok()) << "every bundled schema needs an example: " << text.status().message();
    auto example = ParseJson(*text);
    ASSERT_TRUE(example.ok()) << example.status().message();
    const Json& props = *entry.schema.find("properties");
    for (const Json& req : entry.schema.find("required")->as_array()) {
      EXPECT_TRUE(props.contains(req.as_string()))
          << "required but not declared: " << req.as_string();
      EXPECT_TRUE(example->contains(req.as_string())) << "example lacks " << req.as_string();
    }
    ASSERT_NE(entry.schema.find("additionalProperties"), nullptr);
    EXPECT_EQ(*entry.schema.find("additionalProperties"), Json(false));
    for (const auto& [key, value] : example->as_object()) {
      EXPECT_TRUE(props.contains(key)) << "example has undeclared " << key;
    }
  }
}

TEST(BundledSchemasTest, UserActionRecordIsExactlyTheSeedExample) {
  auto loaded = Load(kShipped);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  auto seed = ParseJson(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "title": "user-action-record",
    "description": "A single audit entry of a user-performed action.",
    "properties": {
      "userId":    { "type": "string", "pattern": "^[a-zA-Z0-9_-]{3,16}$" },
      "action":    { "type": "string", "description": "verb-phrase, snake-case, past tense" },
      "timestamp": { "type": "string", "format": "date-time" },
      "status":    { "type": "string", "enum": ["success", "failure"] },
      "tags":      { "type": "array", "items": { "type": "string" }, "uniqueItems": true }
    },
    "required": ["userId", "action", "timestamp", "status"],
    "additionalProperties": false
  })");
  ASSERT_TRUE(seed.ok());
  const RegisteredSchema& entry = loaded->at("user-action-record");
  EXPECT_EQ(entry.schema, *seed);
  EXPECT_EQ(ToJson(entry.schema), ToJson(*seed));  // same key order too
  EXPECT_EQ(entry.version, "1.0");
  EXPECT_NE(entry.manual.find("`timestamp` is the time the action happened, not the time of "
                              "recording."),
            std::string::npos);
}

TEST(BundledSchemasTest, LoadsBooleanSchemasDefaultsVersionAndSkipsReservedAndOtherFiles) {
  auto loaded = Load(kData + "/bundled");
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  ASSERT_EQ(loaded->size(), 2u);  // not _reserved.json, notes.txt or orphan.manual.md
  const RegisteredSchema& greeting = loaded->at("greeting");
  EXPECT_EQ(greeting.version, "2.3");
  EXPECT_EQ(greeting.manual, "# greeting\n\nSay hello.\n");
  const RegisteredSchema& anything = loaded->at("anything");
  EXPECT_EQ(anything.schema, Json(true));
  EXPECT_EQ(anything.version, "1.0");
  EXPECT_EQ(anything.manual, "");
}

TEST(BundledSchemasTest, ReportsBrokenFilesByNameAndLocation) {
  struct Case {
    std::string dir;
    Code code;
    std::string says;
  };
  const Case cases[] = {
      {kData + "/bad_json", Code::kInvalidArgument, "bad_json/broken.json:5:"},
      {kData + "/bad_name", Code::kInvalidArgument, "Bad Name.json: schema name \"Bad Name\""},
      {kData + "/bad_version", Code::kInvalidArgument,
       "old.json: \"x-version\": version \"1\" is not \"MAJOR.MINOR\""},
      {kData + "/not_object", Code::kInvalidArgument,
       "list.json: a schema must be a JSON object or a boolean"},
      {kData + "/no_such_dir", Code::kNotFound, "does not exist"},
  };
  for (const Case& c : cases) {
    auto loaded = Load(c.dir);
    ASSERT_FALSE(loaded.ok()) << c.dir;
    EXPECT_EQ(loaded.status().code(), c.code) << loaded.status().message();
    EXPECT_NE(loaded.status().message().find(c.says), std::string::npos)
        << loaded.status().message();
  }
}

TEST(BundledSchemasTest, RefusesFilesOverTheLimitsBeforeParsing) {
  TempDir dir;
  std::ofstream(dir.Path("big.json")) << "{\"description\": \"" << std::string(2000, 'x') << "\"}";
  DocumentLimits limits;
  limits.max_schema_bytes = 1000;
  auto loaded = LoadBundledSchemas(dir.path(), limits, 100);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("big.json: file is 2019 bytes, the limit is 1000"),
            std::string::npos)
      << loaded.status().message();

  std::filesystem::remove(dir.Path("big.json"));
  std::ofstream(dir.Path("small.json")) << "{}";
  std::ofstream(dir.Path("small.manual.md")) << std::string(101, 'm');
  loaded = LoadBundledSchemas(dir.path(), limits, 100);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.status().message().find("small.manual.md: file is 101 bytes"), std::string::npos)
      << loaded.status().message();
}

}  // namespace
}  // namespace structure::registry
