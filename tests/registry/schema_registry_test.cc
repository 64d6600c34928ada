#include "registry/schema_registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/registry/registry_test_util.h"

namespace structure::registry {
namespace {

const Scope kBundledOnly{};
const Scope kAcme{"acme", ""};
const Scope kAcmeApollo{"acme", "apollo"};
const Scope kAcmeZeus{"acme", "zeus"};
const Scope kGlobex{"globex", ""};
const Scope kGlobexApollo{"globex", "apollo"};

class SchemaRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    RegistryOptions options;
    options.now_ms = [this] { return ++clock_ms_; };
    registry_ = OpenOrDie(":memory:", options);
    ASSERT_NE(registry_, nullptr);
  }

  int64_t clock_ms_ = 1000;
  std::unique_ptr<SchemaRegistry> registry_;
};

TEST_F(SchemaRegistryTest, FindsBundledSchemasFromEveryScope) {
  for (const Scope& scope : {kBundledOnly, kAcme, kAcmeApollo}) {
    auto found = registry_->Find("user-action-record", scope);
    ASSERT_TRUE(found.ok()) << found.status().message();
    EXPECT_EQ(found->origin, "registry:bundled");
    EXPECT_EQ(found->version, "1.0");
    EXPECT_EQ(found->name, "user-action-record");
    EXPECT_FALSE(found->manual.empty());
    EXPECT_EQ(found->schema.find("title")->as_string(), "user-action-record");
  }
}

TEST_F(SchemaRegistryTest, ProjectBeatsTenantBeatsBundledAndReportsTheOrigin) {
  ASSERT_TRUE(
      registry_
          ->Put(kAcme, Record("user-action-record", "1.1", UarSchema("tenant"), "tenant manual"))
          .ok());
  ASSERT_TRUE(registry_
                  ->Put(kAcmeApollo,
                        Record("user-action-record", "1.2", UarSchema("project"), "project manual"))
                  .ok());

  auto in_project = registry_->Find("user-action-record", kAcmeApollo);
  ASSERT_TRUE(in_project.ok()) << in_project.status().message();
  EXPECT_EQ(in_project->origin, "registry:project:apollo");
  EXPECT_EQ(Marker(*in_project), "project");
  EXPECT_EQ(in_project->manual, "project manual");
  EXPECT_EQ(in_project->version, "1.2");
  EXPECT_EQ(in_project->updated_at_ms, 1002);

  for (const Scope& scope : {kAcme, kAcmeZeus}) {
    auto found = registry_->Find("user-action-record", scope);
    ASSERT_TRUE(found.ok());
    EXPECT_EQ(found->origin, "registry:tenant:acme");
    EXPECT_EQ(Marker(*found), "tenant");
    EXPECT_EQ(found->manual, "tenant manual");
    EXPECT_EQ(found->version, "1.1");
  }
  for (const Scope& scope : {kBundledOnly, kGlobex, kGlobexApollo}) {
    auto found = registry_->Find("user-action-record", scope);
    ASSERT_TRUE(found.ok());
    EXPECT_EQ(found->origin, "registry:bundled");
  }

  // Deleting an override uncovers the level below it.
  ASSERT_TRUE(registry_->Delete(kAcmeApollo, "user-action-record").ok());
  EXPECT_EQ(registry_->Find("user-action-record", kAcmeApollo)->origin, "registry:tenant:acme");
  ASSERT_TRUE(registry_->Delete(kAcme, "user-action-record").ok());
  EXPECT_EQ(registry_->Find("user-action-record", kAcmeApollo)->origin, "registry:bundled");
}

TEST_F(SchemaRegistryTest, ProjectIdsBelongToTheirTenant) {
  ASSERT_TRUE(registry_->Put(kAcmeApollo, Record("launch-plan", "1.0", "{}")).ok());
  EXPECT_TRUE(registry_->Find("launch-plan", kAcmeApollo).ok());
  EXPECT_EQ(registry_->Find("launch-plan", kGlobexApollo).status().code(), Code::kNotFound);
  EXPECT_EQ(registry_->Find("launch-plan", kAcme).status().code(), Code::kNotFound);
  EXPECT_EQ(registry_->Find("launch-plan", kAcmeZeus).status().code(), Code::kNotFound);
}

TEST_F(SchemaRegistryTest, UnknownNameIsNotFoundAndNamesOnlyTheLevelsSearched) {
  ASSERT_TRUE(registry_->Put(kGlobex, Record("secret-plan", "1.0", "{}")).ok());
  auto found = registry_->Find("secret-plan", kAcmeApollo);
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.status().code(), Code::kNotFound);
  EXPECT_EQ(found.status().message(),
            "unknown schema name \"secret-plan\" (searched project \"apollo\", tenant \"acme\", "
            "bundled)");
  // Same message shape whether or not another tenant has the name.
  auto other = registry_->Find("no-such-plan", kAcmeApollo);
  EXPECT_EQ(other.status().message(),
            "unknown schema name \"no-such-plan\" (searched project \"apollo\", tenant \"acme\", "
            "bundled)");
  EXPECT_EQ(registry_->Find("secret-plan", kBundledOnly).status().message(),
            "unknown schema name \"secret-plan\" (searched bundled)");
}

TEST_F(SchemaRegistryTest, ListIsScopedAndShowsWhatEachEntryShadows) {
  ASSERT_TRUE(registry_->Put(kAcme, Record("acme-only", "1.0", "{}")).ok());
  ASSERT_TRUE(registry_->Put(kAcme, Record("invoice", "1.1", Bundled("invoice"))).ok());
  ASSERT_TRUE(registry_->Put(kAcmeApollo, Record("invoice", "1.2", Bundled("invoice"))).ok());
  ASSERT_TRUE(registry_->Put(kAcmeApollo, Record("apollo-only", "0.1", "{}")).ok());
  ASSERT_TRUE(registry_->Put(kGlobex, Record("globex-only", "1.0", "{}")).ok());
  ASSERT_TRUE(registry_->Put(kGlobexApollo, Record("globex-apollo-only", "1.0", "{}")).ok());

  auto bundled = registry_->List(kBundledOnly);
  ASSERT_TRUE(bundled.ok());
  const size_t shipped = bundled->size();
  for (const RegisteredSchema& e : *bundled) EXPECT_EQ(e.origin, "registry:bundled");

  auto names = [](const std::vector<RegisteredSchema>& list) {
    std::vector<std::string> out;
    for (const auto& e : list) out.push_back(e.name);
    return out;
  };
  auto contains = [&](const std::vector<RegisteredSchema>& list, const std::string& name) {
    auto n = names(list);
    return std::find(n.begin(), n.end(), name) != n.end();
  };

  auto acme = registry_->List(kAcme);
  ASSERT_TRUE(acme.ok());
  EXPECT_EQ(acme->size(), shipped + 1);
  EXPECT_TRUE(contains(*acme, "acme-only"));
  EXPECT_FALSE(contains(*acme, "apollo-only"));
  EXPECT_FALSE(contains(*acme, "globex-only"));

  auto apollo = registry_->List(kAcmeApollo);
  ASSERT_TRUE(apollo.ok());
  EXPECT_EQ(apollo->size(), shipped + 2);
  EXPECT_TRUE(contains(*apollo, "apollo-only"));
  EXPECT_FALSE(contains(*apollo, "globex-apollo-only"));
  std::vector<std::string> sorted = names(*apollo);
  EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));
  for (const RegisteredSchema& e : *apollo) {
    if (e.name == "invoice") {
      EXPECT_EQ(e.origin, "registry:project:apollo");
      EXPECT_EQ(e.version, "1.2");
      EXPECT_EQ(e.shadows, (std::vector<std::string>{"registry:tenant:acme", "registry:bundled"}));
    } else if (e.name == "acme-only") {
      EXPECT_EQ(e.origin, "registry:tenant:acme");
      EXPECT_TRUE(e.shadows.empty());
    }
  }

  auto globex = registry_->List(kGlobexApollo);
  ASSERT_TRUE(globex.ok());
  EXPECT_EQ(globex->size(), shipped + 2);
  for (const RegisteredSchema& e : *globex) {
    EXPECT_EQ(e.origin.find("acme"), std::string::npos) << e.name;
    for (const auto& s : e.shadows) EXPECT_EQ(s.find("acme"), std::string::npos) << e.name;
  }
}

TEST_F(SchemaRegistryTest, GetReadsExactlyOneLevel) {
  ASSERT_TRUE(registry_->Put(kAcme, Record("invoice", "1.1", Bundled("invoice"))).ok());
  EXPECT_EQ(registry_->Get(kAcme, "invoice")->origin, "registry:tenant:acme");
  EXPECT_EQ(registry_->Get(kBundledOnly, "invoice")->origin, "registry:bundled");
  auto missing = registry_->Get(kAcmeApollo, "invoice");
  EXPECT_EQ(missing.status().code(), Code::kNotFound);
  EXPECT_EQ(missing.status().message(),
            "no schema \"invoice\" stored at project \"apollo\" of tenant \"acme\"");
}

TEST_F(SchemaRegistryTest, BundledLevelIsReadOnly) {
  Status put = registry_->Put(kBundledOnly, Record("invoice", "1.1", Bundled("invoice")));
  EXPECT_EQ(put.code(), Code::kInvalidArgument);
  EXPECT_NE(put.message().find("bundled schemas are read-only"), std::string::npos);
  EXPECT_EQ(registry_->Delete(kBundledOnly, "invoice").code(), Code::kInvalidArgument);
  Status del = registry_->Delete(kAcme, "invoice");
  EXPECT_EQ(del.code(), Code::kNotFound);
  EXPECT_EQ(del.message(), "no schema \"invoice\" stored at tenant \"acme\"");
}

TEST_F(SchemaRegistryTest, RejectsBadNamesAndScopesEverywhere) {
  const Scope bad_scopes[] = {{"", "apollo"}, {"ac/me", ""}, {"acme", "apo llo"}};
  for (const Scope& scope : bad_scopes) {
    EXPECT_EQ(registry_->Find("invoice", scope).status().code(), Code::kInvalidArgument);
    EXPECT_EQ(registry_->List(scope).status().code(), Code::kInvalidArgument);
    EXPECT_EQ(registry_->Put(scope, Record("x", "1.0", "{}")).code(), Code::kInvalidArgument);
    EXPECT_EQ(registry_->Delete(scope, "x").code(), Code::kInvalidArgument);
  }
  EXPECT_NE(registry_->Find("x", {"", "apollo"}).status().message().find("without a tenant"),
            std::string::npos);
  for (const char* name : {"", "Invoice", "user action", "../etc/passwd", "-x"}) {
    auto found = registry_->Find(name, kAcme);
    EXPECT_EQ(found.status().code(), Code::kInvalidArgument) << name;
    EXPECT_NE(found.status().message().find("schema name"), std::string::npos);
    EXPECT_EQ(registry_->Put(kAcme, Record(name, "1.0", "{}")).code(), Code::kInvalidArgument);
    EXPECT_EQ(registry_->Delete(kAcme, name).code(), Code::kInvalidArgument);
  }
}

}  // namespace
}  // namespace structure::registry
