// The registry over a real SQLite file: reopen, several registries on one file, many threads.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "registry/schema_registry.h"
#include "registry/schema_store.h"
#include "tests/registry/registry_test_util.h"
#include "tests/registry/temp_dir.h"

namespace structure::registry {
namespace {

TEST(RegistryStoreTest, OverridesSurviveAReopenOfTheSameFile) {
  TempDir dir;
  const std::string db = dir.Path("registry.db");
  {
    auto registry = OpenOrDie(db);
    ASSERT_NE(registry, nullptr);
    ASSERT_TRUE(
        registry->Put({"acme", ""}, Record("invoice", "1.1", Bundled("invoice"), "tenant manual"))
            .ok());
    ASSERT_TRUE(
        registry->Put({"acme", "apollo"}, Record("user-action-record", "1.4", UarSchema("p")))
            .ok());
  }
  auto registry = OpenOrDie(db);
  ASSERT_NE(registry, nullptr);
  auto invoice = registry->Find("invoice", {"acme", "apollo"});
  ASSERT_TRUE(invoice.ok()) << invoice.status().message();
  EXPECT_EQ(invoice->origin, "registry:tenant:acme");
  EXPECT_EQ(invoice->manual, "tenant manual");
  EXPECT_EQ(invoice->version, "1.1");
  EXPECT_GT(invoice->updated_at_ms, 0);
  auto uar = registry->Find("user-action-record", {"acme", "apollo"});
  ASSERT_TRUE(uar.ok());
  EXPECT_EQ(uar->origin, "registry:project:apollo");
  EXPECT_EQ(Marker(*uar), "p");
  // The version history is kept too: a lower version is still refused after the reopen.
  EXPECT_EQ(registry->Put({"acme", ""}, Record("invoice", "1.0", "{}")).code(),
            Code::kInvalidArgument);
}

TEST(RegistryStoreTest, OpenReportsAMissingBundledDirectoryAndAllowsNone) {
  auto missing = SchemaRegistry::Open("/nonexistent/schemas", ":memory:");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Code::kNotFound);
  EXPECT_NE(missing.status().message().find("/nonexistent/schemas"), std::string::npos);

  auto none = SchemaRegistry::Open("", ":memory:");
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_TRUE((*none)->List({})->empty());
  EXPECT_EQ((*none)->Find("user-action-record", {}).status().code(), Code::kNotFound);
}

TEST(RegistryStoreTest, TwoRegistriesOnOneFileSeeEachOthersWrites) {
  TempDir dir;
  const std::string db = dir.Path("shared.db");
  auto writer = OpenOrDie(db);
  auto reader = OpenOrDie(db);
  ASSERT_NE(writer, nullptr);
  ASSERT_NE(reader, nullptr);
  ASSERT_TRUE(writer->Put({"acme", ""}, Record("contact", "1.1", Bundled("contact"))).ok());
  EXPECT_EQ(reader->Find("contact", {"acme", ""})->origin, "registry:tenant:acme");
}

TEST(RegistryStoreTest, ARowBrokenOutsideTheApiIsAnInternalErrorNamingIt) {
  TempDir dir;
  const std::string db = dir.Path("edited.db");
  auto registry = OpenOrDie(db);
  ASSERT_NE(registry, nullptr);
  {
    auto store = SchemaStore::Open(db);  // e.g. a hand edit of the table
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->Put({"acme", ""}, StoredSchema{"invoice", "1.1", "{oops", "", 1}).ok());
  }
  auto found = registry->Find("invoice", {"acme", ""});
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.status().code(), Code::kInternal);
  EXPECT_NE(found.status().message().find(
                "stored schema is corrupt: registry:tenant:acme schema \"invoice\":1:"),
            std::string::npos)
      << found.status().message();
  // Other tenants are unaffected.
  EXPECT_EQ(registry->Find("invoice", {"globex", ""})->origin, "registry:bundled");
}

// Several threads find, list and put on one registry at once. Each writer owns a tenant and
// raises its minor version step by step; readers of that tenant must only ever see a version
// that was written, never a torn or foreign entry. ASan/TSan-style races would show here.
TEST(RegistryStoreTest, ConcurrentFindsAndPutsStayConsistent) {
  TempDir dir;
  auto registry = OpenOrDie(dir.Path("concurrent.db"));
  ASSERT_NE(registry, nullptr);
  constexpr int kThreads = 4;
  constexpr int kSteps = 20;  // each Put is a durable commit (fsync): keep it short
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const Scope own{"tenant" + std::to_string(t), "p"};
      const Scope other{"tenant" + std::to_string((t + 1) % kThreads), "p"};
      int last_seen_other = -1;
      for (int i = 0; i < kSteps; ++i) {
        Status put =
            registry->Put(own, Record("counter", "1." + std::to_string(i), UarSchema(own.tenant)));
        if (!put.ok()) ++failures;
        auto mine = registry->Find("counter", own);
        if (!mine.ok() || mine->version != "1." + std::to_string(i) ||
            Marker(*mine) != own.tenant || mine->origin != "registry:project:p") {
          ++failures;
        }
        auto theirs = registry->Find("counter", other);
        if (theirs.ok()) {
          int minor = std::stoi(theirs->version.substr(2));
          // Versions of one tenant only go up, and never carry another tenant's schema.
          if (minor < last_seen_other || Marker(*theirs) != other.tenant) ++failures;
          last_seen_other = minor;
        } else if (theirs.status().code() != Code::kNotFound) {
          ++failures;
        }
        auto bundled = registry->Find("user-action-record", own);
        if (!bundled.ok() || bundled->origin != "registry:bundled") ++failures;
        if (i % 10 == 0) {
          auto listed = registry->List(own);
          if (!listed.ok()) ++failures;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  for (int t = 0; t < kThreads; ++t) {
    auto found = registry->Find("counter", {"tenant" + std::to_string(t), "p"});
    ASSERT_TRUE(found.ok());
    EXPECT_EQ(found->version, "1." + std::to_string(kSteps - 1));
  }
}

}  // namespace
}  // namespace structure::registry
