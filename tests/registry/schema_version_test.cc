#include "registry/schema_version.h"

#include <gtest/gtest.h>

#include <string>

namespace structure::registry {
namespace {

TEST(SchemaVersionTest, ParsesMajorDotMinor) {
  struct Case {
    const char* text;
    int major, minor;
  };
  const Case cases[] = {
      {"1.0", 1, 0}, {"0.1", 0, 1}, {"2.13", 2, 13}, {"999999999.7", 999999999, 7}};
  for (const Case& c : cases) {
    auto v = ParseSchemaVersion(c.text);
    ASSERT_TRUE(v.ok()) << c.text << ": " << v.status().message();
    EXPECT_EQ(v->major, c.major);
    EXPECT_EQ(v->minor, c.minor);
    EXPECT_EQ(v->ToString(), c.text);
  }
}

TEST(SchemaVersionTest, RejectsEverythingElse) {
  const char* cases[] = {"",     "1",    "1.",   ".1",   "1.2.3", "v1.0", "01.0",
                         "1.01", "1.-1", " 1.0", "1.0 ", "1,0",   "1.x",  "1234567890.0"};
  for (const char* text : cases) {
    auto v = ParseSchemaVersion(text);
    ASSERT_FALSE(v.ok()) << text;
    EXPECT_EQ(v.status().code(), Code::kInvalidArgument);
    EXPECT_NE(v.status().message().find("is not \"MAJOR.MINOR\""), std::string::npos)
        << v.status().message();
  }
}

TEST(SchemaVersionTest, OrdersByMajorThenMinor) {
  EXPECT_LT((SchemaVersion{1, 2}), (SchemaVersion{1, 10}));
  EXPECT_LT((SchemaVersion{1, 99}), (SchemaVersion{2, 0}));
  EXPECT_EQ((SchemaVersion{3, 4}), (SchemaVersion{3, 4}));
}

TEST(VersionChangeTest, AllowsMinorStepsAndRePutOfTheSameVersion) {
  EXPECT_TRUE(CheckVersionChange("x", {1, 2}, {1, 3}).ok());
  EXPECT_TRUE(CheckVersionChange("x", {1, 2}, {1, 9}).ok());
  EXPECT_TRUE(CheckVersionChange("x", {1, 2}, {1, 2}).ok());
}

TEST(VersionChangeTest, RejectsMajorChangeSuggestingANewName) {
  Status s = CheckVersionChange("user-action-record", {1, 3}, {2, 0});
  EXPECT_EQ(s.code(), Code::kInvalidArgument);
  EXPECT_NE(s.message().find("a breaking change needs a new name, e.g. user-action-record-v2"),
            std::string::npos)
      << s.message();
  s = CheckVersionChange("x", {2, 0}, {1, 5});
  EXPECT_NE(s.message().find("a breaking change needs a new name, e.g. x-v3"), std::string::npos)
      << s.message();
}

TEST(VersionChangeTest, RejectsALowerMinor) {
  Status s = CheckVersionChange("invoice", {1, 3}, {1, 2});
  EXPECT_EQ(s.code(), Code::kInvalidArgument);
  EXPECT_NE(s.message().find("is at version 1.3; version 1.2 would lower it"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace structure::registry
