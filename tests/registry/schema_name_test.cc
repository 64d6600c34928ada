#include "registry/schema_name.h"

#include <gtest/gtest.h>

#include <string>

namespace structure::registry {
namespace {

TEST(SchemaNameTest, AcceptsNamesOfTheRegistryAlphabet) {
  const std::string cases[] = {"a",
                               "0",
                               "user-action-record",
                               "user-action-record-v2",
                               "invoice_2026.de",
                               std::string(64, 'x')};
  for (const std::string& name : cases) {
    EXPECT_TRUE(ValidateSchemaName(name).ok())
        << name << ": " << ValidateSchemaName(name).message();
  }
}

TEST(SchemaNameTest, RejectsOtherNamesSayingWhy) {
  struct Case {
    std::string name;
    std::string says;
  };
  const Case cases[] = {
      {"", "schema name is empty"},
      {std::string(65, 'x'), "65 characters long, at most 64"},
      {"-lead", "starts with '-'"},
      {".hidden", "starts with '.'"},
      {"_meta-schema", "starts with '_'"},
      {"Invoice", "starts with 'I'"},
      {"user action", "has ' ' at position 4"},
      {"a/b", "has '/' at position 1"},
      {"ab\ncd", "has byte \\x0a at position 2"},
      {"caf\xc3\xa9", "has byte \\xc3 at position 3"},
  };
  for (const Case& c : cases) {
    Status s = ValidateSchemaName(c.name);
    EXPECT_EQ(s.code(), Code::kInvalidArgument) << c.name;
    EXPECT_NE(s.message().find(c.says), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("^[a-z0-9][a-z0-9._-]{0,63}$"), std::string::npos) << s.message();
  }
}

TEST(ScopeIdTest, AcceptsUsualTenantAndProjectIds) {
  const std::string cases[] = {"acme", "Acme-Corp", "t_42", "user@example.com",   "9", "a:b",
                               "-x",   ".x",        "...",  std::string(128, 'a')};
  for (const std::string& id : cases) EXPECT_TRUE(ValidateScopeId(id, "tenant").ok()) << id;
}

TEST(ScopeIdTest, RejectsIdsThatArePathsOrHaveOtherCharacters) {
  const std::string cases[] = {
      "", ".", "..", "../x", "a b", "a/b", "a\\b", std::string(129, 'a'), std::string("a\0b", 3)};
  for (const std::string& id : cases) {
    Status s = ValidateScopeId(id, "project");
    EXPECT_EQ(s.code(), Code::kInvalidArgument) << id;
    EXPECT_EQ(s.message().rfind("project id", 0), 0u) << s.message();
  }
  EXPECT_NE(ValidateScopeId("../x", "tenant").message().find("has '/' at position 2"),
            std::string::npos);
  EXPECT_NE(ValidateScopeId("..", "tenant").message().find("names a folder"), std::string::npos);
}

}  // namespace
}  // namespace structure::registry
