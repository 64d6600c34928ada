// The outage fallback in front of a store: reads served from the last answer for a bounded
// time while the database is unreachable, writes refused, never a stale copy while it is up.
#include "registry/fallback_schema_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

namespace structure::registry {
namespace {

// An in-memory store that can be switched "down" (every call kUnavailable).
class SwitchableStore final : public SchemaStore {
 public:
  bool down = false;
  std::optional<StoredSchema> row;

  Result<std::optional<StoredSchema>> Get(const StoreKey&, std::string_view) const override {
    if (down) return Unavailable("db down");
    return row;
  }
  Result<std::vector<StoredSchema>> List(const StoreKey&) const override {
    if (down) return Unavailable("db down");
    std::vector<StoredSchema> out;
    if (row) out.push_back(*row);
    return out;
  }
  Result<std::vector<StoredSchema>> History(const StoreKey&, std::string_view) const override {
    if (down) return Unavailable("db down");
    return std::vector<StoredSchema>{};
  }
  Status Delete(const StoreKey&, std::string_view) override {
    if (down) return Unavailable("db down");
    row.reset();
    return Status::Ok();
  }

 protected:
  Status Write(const StoreKey&, const StoredSchema& s, std::optional<int64_t>) override {
    if (down) return Unavailable("db down");
    row = s;
    return Status::Ok();
  }
};

struct Rig {
  SwitchableStore* inner;
  int64_t now = 0;
  std::unique_ptr<FallbackSchemaStore> store;
  Rig() {
    auto owned = std::make_unique<SwitchableStore>();
    inner = owned.get();
    store = std::make_unique<FallbackSchemaStore>(std::move(owned), std::chrono::seconds(60),
                                                  [this] { return now; });
  }
};

const StoreKey kKey{"t", ""};

TEST(FallbackSchemaStoreTest, ReadsTheDatabaseWheneverItAnswers) {
  Rig rig;
  rig.inner->row = StoredSchema{"x", "1.0", "{}", "", 1};
  EXPECT_EQ((*rig.store->Get(kKey, "x"))->version, "1.0");
  rig.inner->row->version = "1.1";  // another replica wrote
  EXPECT_EQ((*rig.store->Get(kKey, "x"))->version, "1.1");
}

TEST(FallbackSchemaStoreTest, ServesTheLastAnswerDuringAnOutageUpToTheBound) {
  Rig rig;
  rig.inner->row = StoredSchema{"x", "1.0", "{}", "", 1};
  ASSERT_TRUE(rig.store->Get(kKey, "x").ok());
  ASSERT_EQ(rig.store->List(kKey)->size(), 1u);
  rig.inner->down = true;
  rig.now = 60'000;
  auto served = rig.store->Get(kKey, "x");
  ASSERT_TRUE(served.ok()) << served.status().message();
  EXPECT_EQ((*served)->version, "1.0");
  EXPECT_EQ(rig.store->List(kKey)->size(), 1u);
  rig.now = 60'001;
  auto old = rig.store->Get(kKey, "x");
  EXPECT_EQ(old.status().code(), Code::kUnavailable);
  EXPECT_NE(old.status().message().find("db down; the last answer is 60 s old, older than the "
                                        "60 s this server serves during an outage"),
            std::string::npos)
      << old.status().message();
  // A name never read has no copy.
  auto never = rig.store->Get(kKey, "y");
  EXPECT_EQ(never.status().code(), Code::kUnavailable);
  EXPECT_NE(never.status().message().find("no earlier answer"), std::string::npos);
}

TEST(FallbackSchemaStoreTest, RefusesWritesDuringAnOutageAndKeepsServingReads) {
  Rig rig;
  rig.inner->row = StoredSchema{"x", "1.0", "{}", "", 1};
  ASSERT_TRUE(rig.store->Get(kKey, "x").ok());
  rig.inner->down = true;
  Status put = rig.store->Put(kKey, StoredSchema{"x", "1.1", "{}", "", 2});
  EXPECT_EQ(put.code(), Code::kUnavailable);
  EXPECT_EQ(rig.store->Delete(kKey, "x").code(), Code::kUnavailable);
  auto served = rig.store->Get(kKey, "x");
  ASSERT_TRUE(served.ok()) << served.status().message();
  EXPECT_EQ((*served)->version, "1.0");
  // A write that went through replaces what is served next.
  rig.inner->down = false;
  ASSERT_TRUE(rig.store->Put(kKey, StoredSchema{"x", "1.1", "{}", "", 2}).ok());
  ASSERT_TRUE(rig.store->Get(kKey, "x").ok());
  rig.inner->down = true;
  EXPECT_EQ((*rig.store->Get(kKey, "x"))->version, "1.1");
}

}  // namespace
}  // namespace structure::registry
