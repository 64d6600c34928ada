// Several registries on one store, as replicas of a fleet share one database: writes through
// one are found through the others, and concurrent puts of versions lose none and keep one
// order. Run against SQLite and PostgreSQL alike (store_backend.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "registry/schema_registry.h"
#include "registry/schema_version.h"
#include "tests/registry/registry_test_util.h"
#include "tests/registry/store_backend.h"

namespace structure::registry {
namespace {

class RegistryReplicasTest : public StoreBackendTest {};
STORE_BACKENDS(RegistryReplicasTest);

TEST_P(RegistryReplicasTest, APutThroughOneIsFoundThroughAnother) {
  auto a = OpenOrDie(location_);
  auto b = OpenOrDie(location_);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_TRUE(a->Put({"acme", "apollo"}, Record("user-action-record", "1.1", UarSchema("a"))).ok());
  auto found = b->Find("user-action-record", {"acme", "apollo"});
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_EQ(found->origin, "registry:project:apollo");
  EXPECT_EQ(Marker(*found), "a");
  // The version rules see the other replica's write: a lower version is refused through b.
  Status lower = b->Put({"acme", "apollo"}, Record("user-action-record", "1.0", UarSchema("b")));
  EXPECT_EQ(lower.code(), Code::kInvalidArgument) << lower.message();
  ASSERT_TRUE(b->Delete({"acme", "apollo"}, "user-action-record").ok());
  EXPECT_EQ(a->Find("user-action-record", {"acme", "apollo"})->origin, "registry:bundled");
}

// Two registries (two replicas), two threads each, put rising versions of one name at once.
// Without an atomic check-and-write, two puts checked against the same stored version could
// both pass and land out of order. Every put answered OK must be in the history exactly once,
// and the history's versions must never go down.
TEST_P(RegistryReplicasTest, ConcurrentVersionPutsLoseNoneAndKeepOneOrder) {
  std::vector<std::unique_ptr<SchemaRegistry>> replicas;
  for (int i = 0; i < 2; ++i) {
    replicas.push_back(OpenOrDie(location_));
    ASSERT_NE(replicas.back(), nullptr);
  }
  const Scope scope{"acme", ""};
  constexpr int kWriters = 4;
  constexpr int kSteps = 10;
  std::mutex mu;
  std::vector<std::string> accepted;  // markers of the puts answered OK
  std::vector<std::string> errors;
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      SchemaRegistry& registry = *replicas[w % 2];
      for (int i = 1; i <= kSteps; ++i) {
        // Writers interleave their minors: writer w puts 1.(i*kWriters + w).
        std::string minor = std::to_string(i * kWriters + w);
        std::string marker = "w" + std::to_string(w) + "-" + minor;
        Status s =
            registry.Put(scope, Record("user-action-record", "1." + minor, UarSchema(marker)));
        std::lock_guard<std::mutex> lock(mu);
        if (s.ok()) {
          accepted.push_back(marker);
        } else if (s.code() != Code::kInvalidArgument ||
                   s.message().find("would lower it") == std::string::npos) {
          // Refusing a version lower than one already stored is right; anything else is not.
          errors.push_back(s.message());
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_TRUE(errors.empty()) << errors.front();
  ASSERT_FALSE(accepted.empty());

  auto history = replicas[0]->History(scope, "user-action-record");
  ASSERT_TRUE(history.ok()) << history.status().message();
  std::map<std::string, int> seen;
  for (const RegisteredSchema& entry : *history) ++seen[Marker(entry)];
  for (const std::string& marker : accepted) EXPECT_EQ(seen[marker], 1) << marker;
  EXPECT_EQ(history->size(), accepted.size());
  // Newest first: versions never rise going back in time.
  for (size_t i = 1; i < history->size(); ++i) {
    auto newer = ParseSchemaVersion((*history)[i - 1].version);
    auto older = ParseSchemaVersion((*history)[i].version);
    ASSERT_TRUE(newer.ok() && older.ok());
    EXPECT_LE(older->minor, newer->minor) << "history position " << i;
  }
}

}  // namespace
}  // namespace structure::registry
