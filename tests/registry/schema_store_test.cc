// The schema store's contract, run against SQLite and PostgreSQL alike (store_backend.h).
#include "registry/schema_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "registry/store_migrations.h"
#include "tests/registry/store_backend.h"

namespace structure::registry {
namespace {

StoredSchema Row(const std::string& name, const std::string& version, const std::string& schema,
                 int64_t at = 1) {
  return StoredSchema{name, version, schema, "manual of " + name, at};
}

class SchemaStoreTest : public StoreBackendTest {
 protected:
  std::unique_ptr<SchemaStore> OpenStore() {
    auto store = SchemaStore::Open(location_);
    EXPECT_TRUE(store.ok()) << store.status().message();
    return store.ok() ? std::move(store).value() : nullptr;
  }
};
STORE_BACKENDS(SchemaStoreTest);

TEST_P(SchemaStoreTest, PutsGetsListsAndDeletesPerKey) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  StoreKey tenant{"acme", ""};
  StoreKey project{"acme", "apollo"};
  ASSERT_TRUE(store->Put(tenant, Row("b", "1.0", "{}", 5)).ok());
  ASSERT_TRUE(store->Put(tenant, Row("a", "1.0", "true")).ok());
  ASSERT_TRUE(store->Put(project, Row("a", "1.1", "{\"type\":\"object\"}")).ok());

  auto got = store->Get(tenant, "b");
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ((*got)->version, "1.0");
  EXPECT_EQ((*got)->schema, "{}");
  EXPECT_EQ((*got)->manual, "manual of b");
  EXPECT_EQ((*got)->updated_at_ms, 5);
  EXPECT_EQ((*got)->revision, 1);

  auto listed = store->List(tenant);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[0].name, "a");  // sorted by name
  EXPECT_EQ((*listed)[1].name, "b");
  EXPECT_EQ(store->List(project)->size(), 1u);
  EXPECT_EQ((*store->Get(project, "a"))->version, "1.1");

  EXPECT_TRUE(store->Delete(tenant, "a").ok());
  EXPECT_FALSE(store->Get(tenant, "a")->has_value());
  EXPECT_TRUE(store->Get(project, "a")->has_value());
  EXPECT_EQ(store->Delete(tenant, "a").code(), Code::kNotFound);
}

TEST_P(SchemaStoreTest, ReplacesARowInPlaceAndKeepsItsHistory) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  StoreKey key{"t", ""};
  ASSERT_TRUE(store->Put(key, Row("x", "1.2", "{}", 1)).ok());
  ASSERT_TRUE(store->Put(key, Row("x", "1.3", "false", 2)).ok());
  auto listed = store->List(key);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].version, "1.3");
  EXPECT_EQ((*listed)[0].schema, "false");
  EXPECT_EQ((*listed)[0].updated_at_ms, 2);
  EXPECT_EQ((*listed)[0].revision, 2);
  auto history = store->History(key, "x");
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 2u);
  EXPECT_EQ((*history)[0].version, "1.3");  // newest first
  EXPECT_EQ((*history)[0].revision, 2);
  EXPECT_EQ((*history)[1].version, "1.2");
  EXPECT_EQ((*history)[1].revision, 1);
  // A deleted row's history stays, and a new put continues its order.
  ASSERT_TRUE(store->Delete(key, "x").ok());
  EXPECT_EQ(store->History(key, "x")->size(), 2u);
  ASSERT_TRUE(store->Put(key, Row("x", "1.4", "{}", 3)).ok());
  EXPECT_EQ((*store->Get(key, "x"))->revision, 3);
}

TEST_P(SchemaStoreTest, KeepsTheLastFiftyPuts) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  for (int i = 0; i < 53; ++i) {
    ASSERT_TRUE(store->Put({"t", ""}, Row("x", "1." + std::to_string(i), "{}", i)).ok());
  }
  auto history = store->History({"t", ""}, "x");
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 50u);
  EXPECT_EQ(history->front().version, "1.52");
  EXPECT_EQ(history->back().version, "1.3");
}

TEST_P(SchemaStoreTest, WritesOnlyAtTheExpectedRevision) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  StoreKey key{"t", "p"};
  ASSERT_TRUE(store->Put(key, Row("x", "1.0", "{}"), /*expect_revision=*/0).ok());
  // Another writer's view: "no row yet" is stale now.
  EXPECT_EQ(store->Put(key, Row("x", "1.1", "{}"), 0).code(), Code::kFailedPrecondition);
  EXPECT_EQ(store->Put(key, Row("x", "1.1", "{}"), 2).code(), Code::kFailedPrecondition);
  EXPECT_EQ((*store->Get(key, "x"))->version, "1.0");
  EXPECT_EQ(store->History(key, "x")->size(), 1u);
  EXPECT_TRUE(store->Put(key, Row("x", "1.1", "{}"), 1).ok());
  EXPECT_EQ((*store->Get(key, "x"))->revision, 2);
}

TEST_P(SchemaStoreTest, KeepsTenantsAndTheirProjectsApart) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Put({"a", "p"}, Row("x", "1.0", "{}")).ok());
  EXPECT_FALSE(store->Get({"b", "p"}, "x")->has_value());
  EXPECT_FALSE(store->Get({"a", ""}, "x")->has_value());
  EXPECT_FALSE(store->Get({"p", ""}, "x")->has_value());
  EXPECT_TRUE(store->List({"b", "p"})->empty());
}

TEST_P(SchemaStoreTest, RoundTripsTextBytesExactly) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  // NUL and invalid UTF-8 in a manual: PostgreSQL's TEXT would refuse both.
  std::string manual = "Ümlaut, emoji \xF0\x9F\x98\x80, quote ' and \"; DROP TABLE x; --\n";
  manual.push_back('\0');
  manual += "after nul \xC3\x28 \xFF";
  StoredSchema row = Row("x", "1.0", "{\"description\":\"\xE2\x82\xAC\"}");
  row.manual = manual;
  ASSERT_TRUE(store->Put({"t", ""}, row).ok());
  auto got = store->Get({"t", ""}, "x");
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->manual, manual);
  EXPECT_EQ((*got)->schema, row.schema);
  EXPECT_EQ(store->History({"t", ""}, "x")->front().manual, manual);
}

TEST_P(SchemaStoreTest, PersistsAcrossReopen) {
  {
    auto store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->Put({"t", "p"}, Row("x", "1.4", "{}", 77)).ok());
  }
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  auto got = store->Get({"t", "p"}, "x");
  ASSERT_TRUE(got.ok() && got->has_value());
  EXPECT_EQ((*got)->version, "1.4");
  EXPECT_EQ((*got)->updated_at_ms, 77);
}

// Replicas starting together: every open succeeds and the migrations are applied once (a
// second application would fail on the migrations table's primary key, or on PostgreSQL's
// catalog with concurrent CREATE TABLE).
TEST_P(SchemaStoreTest, ConcurrentOpensOfANewDatabaseMigrateOnce) {
  constexpr int kOpeners = 4;
  std::vector<Status> results(kOpeners);
  std::vector<std::thread> threads;
  for (int i = 0; i < kOpeners; ++i) {
    threads.emplace_back([&, i] { results[i] = SchemaStore::Open(location_).status(); });
  }
  for (auto& t : threads) t.join();
  for (const Status& s : results) EXPECT_TRUE(s.ok()) << s.message();
  // The version is recorded: inserting it again is refused.
  EXPECT_NE(RawExec("INSERT INTO structure_migrations VALUES (1, 0)"), "");
}

TEST_P(SchemaStoreTest, RefusesADatabaseMigratedByANewerBinary) {
  ASSERT_NE(OpenStore(), nullptr);
  int64_t newer = LatestStoreVersion() + 1;
  ASSERT_EQ(RawExec("INSERT INTO structure_migrations VALUES (" + std::to_string(newer) + ", 0)"),
            "");
  auto store = SchemaStore::Open(location_);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), Code::kFailedPrecondition);
  const std::string& m = store.status().message();
  EXPECT_NE(m.find("table layout version " + std::to_string(newer)), std::string::npos) << m;
  EXPECT_NE(m.find("newer than this binary knows"), std::string::npos) << m;
}

TEST(SqliteSchemaStoreTest, ReportsAnUnopenablePathAsUnavailable) {
  TempDir dir;
  auto store = SchemaStore::Open(dir.Path("missing/dir/store.db"));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), Code::kUnavailable);
  EXPECT_NE(store.status().message().find("missing/dir/store.db"), std::string::npos)
      << store.status().message();
}

TEST(PostgresSchemaStoreTest, ReportsAnUnreachableServerAsUnavailableAtOnce) {
  int port = testing::FreeLoopbackPort();  // nothing listens there
  std::string url = "postgresql://structure@127.0.0.1:" + std::to_string(port) + "/db";
  auto started = std::chrono::steady_clock::now();
  auto store = SchemaStore::Open(url);
  ASSERT_FALSE(store.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(6));
  EXPECT_EQ(store.status().code(), Code::kUnavailable);
  EXPECT_NE(store.status().message().find("PostgreSQL database " + url +
                                          " is unavailable (cannot connect: "),
            std::string::npos)
      << store.status().message();
}

TEST(PostgresSchemaStoreTest, RefusesAPasswordInTheUrl) {
  auto store = SchemaStore::Open("postgresql://app:secret@127.0.0.1:1/db");
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), Code::kInvalidArgument);
  EXPECT_EQ(store.status().message().find("secret"), std::string::npos);
  EXPECT_NE(store.status().message().find("PGPASSWORD"), std::string::npos);
}

// The server stopped under an open store: calls answer kUnavailable at once (no hang), and
// once it is back the same store reconnects by itself with everything committed still there.
TEST(PostgresSchemaStoreTest, RidesOutAServerRestart) {
  std::string error;
  auto server = testing::PostgresServer::Start(&error);
  ASSERT_NE(server, nullptr) << error;
  auto opened = SchemaStore::Open(server->url());
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  SchemaStore& store = **opened;
  ASSERT_TRUE(store.Put({"t", ""}, Row("x", "1.0", "{}")).ok());

  server->Stop();
  auto started = std::chrono::steady_clock::now();
  auto down = store.Get({"t", ""}, "x");
  EXPECT_EQ(down.status().code(), Code::kUnavailable);
  EXPECT_NE(down.status().message().find("is unavailable"), std::string::npos)
      << down.status().message();
  Status write = store.Put({"t", ""}, Row("x", "1.1", "{}"));
  EXPECT_EQ(write.code(), Code::kUnavailable) << write.message();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(6));

  ASSERT_TRUE(server->Restart(&error)) << error;
  // Reconnects with backoff (at most 5 s between attempts).
  Result<std::optional<StoredSchema>> back = Unavailable("not yet");
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (std::chrono::steady_clock::now() < deadline) {
    back = store.Get({"t", ""}, "x");
    if (back.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_TRUE(back->has_value());
  EXPECT_EQ((*back)->version, "1.0");
  EXPECT_TRUE(store.Put({"t", ""}, Row("x", "1.1", "{}")).ok());
  EXPECT_EQ((*store.Get({"t", ""}, "x"))->version, "1.1");
}

}  // namespace
}  // namespace structure::registry
