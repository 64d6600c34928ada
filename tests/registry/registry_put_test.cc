// Put's rules: versions, schema text and manual checks, the check_schema hook.
#include <gtest/gtest.h>

#include <string>

#include "registry/schema_registry.h"
#include "tests/registry/registry_test_util.h"

namespace structure::registry {
namespace {

const Scope kAcme{"acme", ""};
const Scope kAcmeApollo{"acme", "apollo"};

class RegistryPutTest : public ::testing::Test {
 protected:
  void SetUp() override {
    registry_ = OpenOrDie(":memory:");
    ASSERT_NE(registry_, nullptr);
  }
  std::unique_ptr<SchemaRegistry> registry_;
};

TEST_F(RegistryPutTest, MinorUpdateReplacesInPlace) {
  ASSERT_TRUE(registry_->Put(kAcme, Record("user-action-record", "1.2", UarSchema("v1.2"))).ok());
  ASSERT_TRUE(registry_->Put(kAcme, Record("user-action-record", "1.3", UarSchema("v1.3"))).ok());
  auto found = registry_->Find("user-action-record", kAcme);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->version, "1.3");
  EXPECT_EQ(Marker(*found), "v1.3");
  auto listed = registry_->List(kAcme);
  ASSERT_TRUE(listed.ok());
  int count = 0;
  for (const auto& e : *listed) count += e.name == "user-action-record";
  EXPECT_EQ(count, 1);
  // Re-putting the same version (e.g. to fix a description) is allowed.
  EXPECT_TRUE(registry_->Put(kAcme, Record("user-action-record", "1.3", UarSchema("fixed"))).ok());
  EXPECT_EQ(Marker(*registry_->Find("user-action-record", kAcme)), "fixed");
}

TEST_F(RegistryPutTest, RejectsALowerVersionAndKeepsTheStoredOne) {
  ASSERT_TRUE(registry_->Put(kAcme, Record("user-action-record", "1.3", UarSchema("v1.3"))).ok());
  Status s = registry_->Put(kAcme, Record("user-action-record", "1.2", UarSchema("v1.2")));
  EXPECT_EQ(s.code(), Code::kInvalidArgument);
  EXPECT_NE(s.message().find("is at version 1.3; version 1.2 would lower it"), std::string::npos)
      << s.message();
  EXPECT_EQ(Marker(*registry_->Find("user-action-record", kAcme)), "v1.3");
}

TEST_F(RegistryPutTest, RejectsAMajorChangeUnderTheSameName) {
  ASSERT_TRUE(registry_->Put(kAcme, Record("user-action-record", "1.3", UarSchema("v1"))).ok());
  Status s = registry_->Put(kAcme, Record("user-action-record", "2.0", UarSchema("v2")));
  EXPECT_EQ(s.code(), Code::kInvalidArgument);
  EXPECT_NE(s.message().find("a breaking change needs a new name, e.g. user-action-record-v2"),
            std::string::npos)
      << s.message();
  // The same holds for an override of a bundled schema (bundled user-action-record is 1.0) ...
  s = registry_->Put(kAcmeApollo, Record("user-action-record", "2.0", UarSchema("v2")));
  EXPECT_NE(s.message().find("a breaking change needs a new name, e.g. user-action-record-v2"),
            std::string::npos)
      << s.message();
  s = registry_->Put(kAcmeApollo, Record("event", "0.9", "{}"));
  EXPECT_NE(s.message().find("at registry:bundled"), std::string::npos) << s.message();
  // ... and the new name is the way to go.
  EXPECT_TRUE(registry_->Put(kAcme, Record("user-action-record-v2", "2.0", UarSchema("v2"))).ok());
  EXPECT_EQ(registry_->Find("user-action-record", kAcme)->version, "1.3");
  EXPECT_EQ(registry_->Find("user-action-record-v2", kAcme)->version, "2.0");
}

TEST_F(RegistryPutTest, RefusesABreakingMinorVersionNamingWhatBroke) {
  const std::string v12 = R"({"type":"object","properties":{"name":{"type":"string"},
    "priority":{"type":"integer","maximum":5}},"required":["name"]})";
  ASSERT_TRUE(registry_->Put(kAcme, Record("ticket", "1.2", v12)).ok());
  const std::string v13 = R"({"type":"object","properties":{"name":{"type":"string"},
    "priority":{"type":"integer","maximum":3}},"required":["name","priority"]})";
  Status s = registry_->Put(kAcme, Record("ticket", "1.3", v13));
  EXPECT_EQ(s.code(), Code::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "schema \"ticket\" version 1.3 is not compatible with version 1.2 at "
            "registry:tenant:acme: (root): property \"priority\" is now required; "
            "/properties/priority: upper bound lowered from maximum 5 to maximum 3. A minor "
            "version may only add optional properties and relax constraints; a breaking change "
            "needs a new name, e.g. ticket-v2");
  EXPECT_EQ(registry_->Find("ticket", kAcme)->version, "1.2");
  // A re-put of the same version may not break it either.
  EXPECT_EQ(registry_->Put(kAcme, Record("ticket", "1.2", v13)).code(), Code::kInvalidArgument);
  // An override at a project is a minor step of what it shadows.
  s = registry_->Put(kAcmeApollo, Record("ticket", "1.4", R"({"type":"object","properties":{
    "name":{"type":"string"}}})"));
  EXPECT_NE(s.message().find("version 1.4 is not compatible with version 1.2 at "
                             "registry:tenant:acme: (root): property \"priority\" removed"),
            std::string::npos)
      << s.message();
  // Of a bundled schema too (user-action-record 1.0 requires four properties).
  s = registry_->Put(kAcme, Record("user-action-record", "1.1", R"({"type":"object"})"));
  EXPECT_NE(s.message().find("at registry:bundled: (root): property \"userId\" removed"),
            std::string::npos)
      << s.message();
  // The new name is the way to go, and compatible steps pass.
  EXPECT_TRUE(registry_->Put(kAcme, Record("ticket-v2", "2.0", v13)).ok());
  EXPECT_TRUE(registry_
                  ->Put(kAcme, Record("ticket", "1.3", R"({"type":"object","properties":{
    "name":{"type":"string"},"priority":{"type":"number","maximum":9},"source":{}}})"))
                  .ok());
}

TEST_F(RegistryPutTest, AnOverrideMayDifferInMinorFromTheLevelItShadows) {
  ASSERT_TRUE(registry_->Put(kAcme, Record("invoice", "1.5", Bundled("invoice"))).ok());
  EXPECT_TRUE(registry_->Put(kAcmeApollo, Record("invoice", "1.2", Bundled("invoice"))).ok());
  EXPECT_EQ(registry_->Find("invoice", kAcmeApollo)->version, "1.2");
}

TEST_F(RegistryPutTest, TakesTheVersionFromXVersionAndStripsIt) {
  const std::string schema = R"({"x-version":"1.4","type":"object"})";
  ASSERT_TRUE(registry_->Put(kAcme, Record("report", "", schema)).ok());
  auto found = registry_->Find("report", kAcme);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->version, "1.4");
  EXPECT_EQ(ToJson(found->schema), R"({"type":"object"})");
  EXPECT_TRUE(registry_->Put(kAcme, Record("report", "1.4", schema)).ok());  // agreeing

  Status s = registry_->Put(kAcme, Record("report", "1.5", schema));
  EXPECT_EQ(s.code(), Code::kInvalidArgument);
  EXPECT_NE(s.message().find("version \"1.5\" disagrees with the schema's \"x-version\" \"1.4\""),
            std::string::npos)
      << s.message();
}

TEST_F(RegistryPutTest, RejectsMissingOrMalformedVersions) {
  Status s = registry_->Put(kAcme, Record("report", "", "{}"));
  EXPECT_EQ(s.code(), Code::kInvalidArgument);
  EXPECT_NE(s.message().find("has no version"), std::string::npos) << s.message();
  for (const char* v : {"1", "1.0.0", "v1.0", "latest", "-1.0", "1.0-beta"}) {
    s = registry_->Put(kAcme, Record("report", v, "{}"));
    EXPECT_EQ(s.code(), Code::kInvalidArgument) << v;
    EXPECT_NE(s.message().find("is not \"MAJOR.MINOR\""), std::string::npos) << s.message();
  }
  s = registry_->Put(kAcme, Record("report", "", R"({"x-version": 1.0})"));
  EXPECT_NE(s.message().find("\"x-version\" must be a string"), std::string::npos) << s.message();
  EXPECT_EQ(registry_->Find("report", kAcme).status().code(), Code::kNotFound);
}

TEST_F(RegistryPutTest, RejectsSchemaTextThatIsNotAJsonObjectOrBoolean) {
  struct Case {
    std::string text;
    std::string says;
  };
  const Case cases[] = {
      {"{\"type\": \"object\",\n  \"properties\": {,}}", "schema \"report\":2:"},
      {"", "schema \"report\":1:1:"},
      {"{\"type\": \"object\"} trailing", "schema \"report\":1:"},
      {"[1, 2]", "must be a JSON object or a boolean (Draft 2020-12), got a JSON array"},
      {"\"object\"", "got a JSON string"},
      {"null", "got a JSON null"},
      {"42", "got a JSON number"},
  };
  for (const Case& c : cases) {
    Status s = registry_->Put(kAcme, Record("report", "1.0", c.text));
    EXPECT_EQ(s.code(), Code::kInvalidArgument) << c.text;
    EXPECT_NE(s.message().find(c.says), std::string::npos) << c.text << " -> " << s.message();
  }
  EXPECT_TRUE(registry_->Put(kAcme, Record("anything", "1.0", "true")).ok());
  EXPECT_EQ(registry_->Find("anything", kAcme)->schema, Json(true));
  EXPECT_TRUE(registry_->Put(kAcme, Record("nothing", "1.0", " false\n")).ok());
  EXPECT_EQ(registry_->Find("nothing", kAcme)->schema, Json(false));
}

TEST(RegistryLimitsTest, BoundsSchemaSizeNestingAndManualSize) {
  RegistryOptions options;
  options.limits.max_schema_bytes = 200;
  options.limits.max_depth = 16;
  options.max_manual_bytes = 50;
  // No bundled directory: the shipped files are larger than these test limits.
  auto opened = SchemaRegistry::Open("", ":memory:", options);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  auto& registry = *opened;
  const Scope acme{"acme", ""};

  std::string big = "{\"description\":\"" + std::string(300, 'x') + "\"}";
  Status s = registry->Put(acme, Record("big", "1.0", big));
  EXPECT_EQ(s.code(), Code::kInvalidArgument);
  EXPECT_NE(s.message().find("schema is 318 bytes, the limit is 200"), std::string::npos)
      << s.message();

  std::string deep;
  for (int i = 0; i < 20; ++i) deep += "{\"a\":";
  deep += "{}" + std::string(20, '}');  // 122 bytes, nesting 21
  s = registry->Put(acme, Record("deep", "1.0", deep));
  EXPECT_EQ(s.code(), Code::kInvalidArgument) << s.message();
  EXPECT_NE(s.message().find("schema \"deep\":1:"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("16"), std::string::npos) << s.message();

  s = registry->Put(acme, Record("wordy", "1.0", "{}", std::string(51, 'm')));
  EXPECT_EQ(s.code(), Code::kInvalidArgument);
  EXPECT_NE(s.message().find("manual of \"wordy\" is 51 bytes, the limit is 50"), std::string::npos)
      << s.message();
  EXPECT_TRUE(registry->Put(acme, Record("wordy", "1.0", "{}", std::string(50, 'm'))).ok());
}

TEST(RegistryLimitsTest, RunsTheSchemaCheckHookBeforeStoring) {
  RegistryOptions options;
  options.check_schema = [](const Json& schema) {
    if (schema.is_object() && schema.contains("$recursiveRef")) {
      return InvalidArgument("/$recursiveRef: not supported in 2020-12, use $dynamicRef");
    }
    return Status::Ok();
  };
  auto registry = OpenOrDie(":memory:", options);
  ASSERT_NE(registry, nullptr);
  Status s = registry->Put({"acme", ""}, Record("old", "1.0", R"({"$recursiveRef":"#"})"));
  EXPECT_EQ(s, InvalidArgument("/$recursiveRef: not supported in 2020-12, use $dynamicRef"));
  EXPECT_EQ(registry->Find("old", {"acme", ""}).status().code(), Code::kNotFound);
  EXPECT_TRUE(registry->Put({"acme", ""}, Record("new", "1.0", R"({"type":"object"})")).ok());
}

}  // namespace
}  // namespace structure::registry
