// The console's call records in PostgreSQL (a private server, store_backend.h) and the writer
// that batches them off the request path.
#include "registry/call_records.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "base/time_format.h"
#include "registry/call_record_writer.h"
#include "tests/support/postgres_server.h"

namespace structure::registry {
namespace {

CallRecord Rec(const std::string& tenant, const std::string& project, int64_t at_ms,
               const std::string& schema = "ticket", bool evidence = false) {
  CallRecord c;
  c.at_ms = at_ms;
  c.tenant = tenant;
  c.project = project;
  c.schema = schema;
  c.evidence = evidence;
  c.summary = R"({"at":)" + std::to_string(at_ms) + "}";
  return c;
}

std::shared_ptr<CallRecordStore> OpenRecords(const std::string& url) {
  auto store = OpenPostgresCallRecords(url);
  EXPECT_TRUE(store.ok()) << store.status().message();
  return store.ok() ? std::shared_ptr<CallRecordStore>(std::move(*store)) : nullptr;
}

TEST(CallRecordsTest, ListsATenantsVisibleCallsNewestFirst) {
  auto* server = testing::SharedPostgres();
  ASSERT_NE(server, nullptr);
  auto store = OpenRecords(server->FreshUrl());
  ASSERT_NE(store, nullptr);
  CallRecord kept = Rec("acme", "billing", 3, "invoice", true);
  kept.detail = std::string("{\"prompt\":\"caf\xC3\xA9\"}");
  ASSERT_TRUE(store
                  ->Insert({Rec("acme", "", 1), Rec("acme", "billing", 2), kept,
                            Rec("globex", "billing", 4)})
                  .ok());
  CallRecordQuery all{"acme", {}, "", false, 10};
  auto listed = store->List(all);
  ASSERT_TRUE(listed.ok()) << listed.status().message();
  ASSERT_EQ(listed->size(), 3u);  // never another tenant's
  EXPECT_EQ((*listed)[0].at_ms, 3);
  EXPECT_EQ((*listed)[0].detail, kept.detail);
  EXPECT_TRUE((*listed)[0].evidence);
  EXPECT_EQ((*listed)[2].at_ms, 1);
  EXPECT_EQ(store->List({"acme", {"billing"}, "", false, 10})->size(), 2u);
  EXPECT_EQ(store->List({"acme", {"*"}, "", false, 10})->size(), 3u);
  EXPECT_EQ(store->List({"acme", {}, "invoice", false, 10})->size(), 1u);
  EXPECT_EQ(store->List({"acme", {}, "", true, 10})->size(), 1u);
  EXPECT_EQ(store->List({"acme", {}, "", false, 2})->size(), 2u);
  auto one = store->Get((*listed)[0].id);
  ASSERT_TRUE(one.ok() && one->has_value());
  EXPECT_EQ((*one)->summary, kept.summary);
  EXPECT_FALSE(store->Get(999999)->has_value());
}

TEST(CallRecordsTest, PrunesByAgeAndByRows) {
  auto* server = testing::SharedPostgres();
  ASSERT_NE(server, nullptr);
  auto store = OpenRecords(server->FreshUrl());
  ASSERT_NE(store, nullptr);
  std::vector<CallRecord> batch;
  for (int i = 1; i <= 10; ++i) batch.push_back(Rec("t", "", i * 100));
  ASSERT_TRUE(store->Insert(batch).ok());
  auto by_age = store->Prune(/*before_ms=*/300, /*keep_rows=*/1000);
  ASSERT_TRUE(by_age.ok()) << by_age.status().message();
  EXPECT_EQ(*by_age, 2);
  auto by_rows = store->Prune(0, 5);
  ASSERT_TRUE(by_rows.ok());
  EXPECT_EQ(*by_rows, 3);
  auto left = store->List({"t", {}, "", false, 100});
  ASSERT_EQ(left->size(), 5u);
  EXPECT_EQ(left->back().at_ms, 600);
}

TEST(CallRecordWriterTest, WritesInBatchesOffTheCallersThread) {
  auto* server = testing::SharedPostgres();
  ASSERT_NE(server, nullptr);
  auto store = OpenRecords(server->FreshUrl());
  ASSERT_NE(store, nullptr);
  CallRecordWriterOptions options;
  options.batch = 7;
  CallRecordWriter writer(store, options);
  for (int i = 0; i < 50; ++i) writer.Add(Rec("t", "", UnixNowMs()));
  ASSERT_TRUE(writer.Flush(std::chrono::seconds(10)));
  EXPECT_EQ(writer.written(), 50u);
  EXPECT_EQ(writer.dropped(), 0u);
  EXPECT_EQ(store->List({"t", {}, "", false, 100})->size(), 50u);
}

// The database down: records wait in the queue up to its bound, the oldest beyond it are
// dropped and counted, and the rest are written once it is back.
TEST(CallRecordWriterTest, BuffersWhileTheDatabaseIsDownAndCountsWhatItDrops) {
  std::string error;
  auto server = testing::PostgresServer::Start(&error);
  ASSERT_NE(server, nullptr) << error;
  auto store = OpenRecords(server->url());
  ASSERT_NE(store, nullptr);
  CallRecordWriterOptions options;
  options.max_queued = 20;
  options.flush_every = std::chrono::milliseconds(50);
  CallRecordWriter writer(store, options);
  server->Stop();
  auto started = std::chrono::steady_clock::now();
  for (int i = 0; i < 30; ++i) writer.Add(Rec("t", "", i));
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(1))
      << "Add waits for nothing";
  // A batch the writer holds while it tries the database comes back to the queue's front.
  auto settle = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (writer.dropped() < 10u && std::chrono::steady_clock::now() < settle) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(writer.dropped(), 10u);
  while (!writer.failing() && std::chrono::steady_clock::now() < settle) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(writer.failing());
  EXPECT_EQ(writer.queued(), 20u);
  ASSERT_TRUE(server->Restart(&error)) << error;
  ASSERT_TRUE(writer.Flush(std::chrono::seconds(20)));
  EXPECT_EQ(writer.written(), 20u);
  auto listed = store->List({"t", {}, "", false, 100});
  ASSERT_TRUE(listed.ok()) << listed.status().message();
  ASSERT_EQ(listed->size(), 20u);
  EXPECT_EQ(listed->back().at_ms, 10);  // the oldest ten were the ones dropped
}

}  // namespace
}  // namespace structure::registry
