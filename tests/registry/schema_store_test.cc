#include "registry/schema_store.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/registry/temp_dir.h"

namespace structure::registry {
namespace {

StoredSchema Row(const std::string& name, const std::string& version, const std::string& schema,
                 int64_t at = 1) {
  return StoredSchema{name, version, schema, "manual of " + name, at};
}

TEST(SchemaStoreTest, PutsGetsListsAndDeletesPerKey) {
  auto store = SchemaStore::Open(":memory:");
  ASSERT_TRUE(store.ok()) << store.status().message();
  StoreKey tenant{"acme", ""};
  StoreKey project{"acme", "apollo"};
  ASSERT_TRUE((*store)->Put(tenant, Row("b", "1.0", "{}", 5)).ok());
  ASSERT_TRUE((*store)->Put(tenant, Row("a", "1.0", "true")).ok());
  ASSERT_TRUE((*store)->Put(project, Row("a", "1.1", "{\"type\":\"object\"}")).ok());

  auto got = (*store)->Get(tenant, "b");
  ASSERT_TRUE(got.ok());
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ((*got)->version, "1.0");
  EXPECT_EQ((*got)->schema, "{}");
  EXPECT_EQ((*got)->manual, "manual of b");
  EXPECT_EQ((*got)->updated_at_ms, 5);

  auto listed = (*store)->List(tenant);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].name, "a");  // sorted by name
  EXPECT_EQ((*listed)[1].name, "b");
  EXPECT_EQ((*store)->List(project)->size(), 1u);
  EXPECT_EQ((*(*store)->Get(project, "a"))->version, "1.1");

  EXPECT_TRUE((*store)->Delete(tenant, "a").ok());
  EXPECT_FALSE((*store)->Get(tenant, "a")->has_value());
  EXPECT_TRUE((*store)->Get(project, "a")->has_value());
  EXPECT_EQ((*store)->Delete(tenant, "a").code(), Code::kNotFound);
}

TEST(SchemaStoreTest, ReplacesARowInPlace) {
  auto store = SchemaStore::Open(":memory:");
  ASSERT_TRUE(store.ok());
  StoreKey key{"t", ""};
  ASSERT_TRUE((*store)->Put(key, Row("x", "1.2", "{}", 1)).ok());
  ASSERT_TRUE((*store)->Put(key, Row("x", "1.3", "false", 2)).ok());
  auto listed = (*store)->List(key);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].version, "1.3");
  EXPECT_EQ((*listed)[0].schema, "false");
  EXPECT_EQ((*listed)[0].updated_at_ms, 2);
}

TEST(SchemaStoreTest, KeepsTenantsAndTheirProjectsApart) {
  auto store = SchemaStore::Open(":memory:");
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)->Put({"a", "p"}, Row("x", "1.0", "{}")).ok());
  EXPECT_FALSE((*store)->Get({"b", "p"}, "x")->has_value());
  EXPECT_FALSE((*store)->Get({"a", ""}, "x")->has_value());
  EXPECT_FALSE((*store)->Get({"p", ""}, "x")->has_value());
  EXPECT_TRUE((*store)->List({"b", "p"})->empty());
}

TEST(SchemaStoreTest, RoundTripsTextBytesExactly) {
  auto store = SchemaStore::Open(":memory:");
  ASSERT_TRUE(store.ok());
  std::string manual = "Ümlaut, emoji \xF0\x9F\x98\x80, quote ' and \"; DROP TABLE x; --\n";
  manual.push_back('\0');
  manual += "after nul";
  StoredSchema row = Row("x", "1.0", "{\"description\":\"\xE2\x82\xAC\"}");
  row.manual = manual;
  ASSERT_TRUE((*store)->Put({"t", ""}, row).ok());
  auto got = (*store)->Get({"t", ""}, "x");
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->manual, manual);
  EXPECT_EQ((*got)->schema, row.schema);
}

TEST(SchemaStoreTest, PersistsAcrossReopen) {
  TempDir dir;
  const std::string path = dir.Path("store.db");
  {
    auto store = SchemaStore::Open(path);
    ASSERT_TRUE(store.ok()) << store.status().message();
    ASSERT_TRUE((*store)->Put({"t", "p"}, Row("x", "1.4", "{}", 77)).ok());
  }
  auto store = SchemaStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status().message();
  auto got = (*store)->Get({"t", "p"}, "x");
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->version, "1.4");
  EXPECT_EQ((*got)->updated_at_ms, 77);
}

TEST(SchemaStoreTest, ReportsAnUnopenablePathAsUnavailable) {
  TempDir dir;
  auto store = SchemaStore::Open(dir.Path("missing/dir/store.db"));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), Code::kUnavailable);
  EXPECT_NE(store.status().message().find("missing/dir/store.db"), std::string::npos)
      << store.status().message();
}

}  // namespace
}  // namespace structure::registry
