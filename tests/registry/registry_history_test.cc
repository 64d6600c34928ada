// SchemaRegistry::CheckPut (Put's answer without the write) and History (every version put).
#include <gtest/gtest.h>

#include "tests/registry/registry_test_util.h"

namespace structure::registry {
namespace {

const Scope kAcme{"acme", ""};

TEST(RegistryHistoryTest, CheckPutAnswersAsPutWouldWithoutStoring) {
  auto reg = OpenOrDie(":memory:");
  ASSERT_TRUE(reg);
  EXPECT_TRUE(reg->CheckPut(kAcme, Record("user-action-record", "1.1", UarSchema("a"))).ok());
  EXPECT_EQ(reg->Get(kAcme, "user-action-record").status().code(), Code::kNotFound)
      << "a check stores nothing";
  ASSERT_TRUE(reg->Put(kAcme, Record("user-action-record", "1.1", UarSchema("a"))).ok());
  // A new required property is breaking: the check refuses it with Put's own message.
  std::string breaking = UarSchema("b");
  breaking.replace(breaking.find(R"("required":["userId"])"), 21,
                   R"("required":["userId","source"])");
  Status check = reg->CheckPut(kAcme, Record("user-action-record", "1.2", breaking));
  Status put = reg->Put(kAcme, Record("user-action-record", "1.2", breaking));
  EXPECT_EQ(check.code(), Code::kInvalidArgument);
  EXPECT_EQ(check.message(), put.message());
  EXPECT_NE(check.message().find("user-action-record-v2"), std::string::npos) << check.message();
}

TEST(RegistryHistoryTest, HistoryListsEveryPutNewestFirstAndSurvivesDelete) {
  auto reg = OpenOrDie(":memory:");
  ASSERT_TRUE(reg);
  ASSERT_TRUE(reg->Put(kAcme, Record("user-action-record", "1.1", UarSchema("one"))).ok());
  ASSERT_TRUE(reg->Put(kAcme, Record("user-action-record", "1.2", UarSchema("two"))).ok());
  ASSERT_TRUE(reg->Put(kAcme, Record("user-action-record", "1.2", UarSchema("fix"))).ok());
  auto h = reg->History(kAcme, "user-action-record");
  ASSERT_TRUE(h.ok()) << h.status().message();
  ASSERT_EQ(h->size(), 3u);
  EXPECT_EQ(Marker((*h)[0]), "fix");
  EXPECT_EQ((*h)[1].version, "1.2");
  EXPECT_EQ(Marker((*h)[2]), "one");
  EXPECT_EQ((*h)[2].origin, "registry:tenant:acme");
  // A refused put leaves no trace in the history.
  EXPECT_FALSE(reg->Put(kAcme, Record("user-action-record", "1.0", UarSchema("old"))).ok());
  EXPECT_EQ(reg->History(kAcme, "user-action-record")->size(), 3u);
  ASSERT_TRUE(reg->Delete(kAcme, "user-action-record").ok());
  EXPECT_EQ(reg->History(kAcme, "user-action-record")->size(), 3u);
  // Another tenant and the project level have their own (empty) histories.
  EXPECT_TRUE(reg->History({"other", ""}, "user-action-record")->empty());
  EXPECT_TRUE(reg->History({"acme", "p"}, "user-action-record")->empty());
  // The bundled level: its one file.
  auto bundled = reg->History({"", ""}, "user-action-record");
  ASSERT_EQ(bundled->size(), 1u);
  EXPECT_EQ((*bundled)[0].origin, "registry:bundled");
}

TEST(RegistryHistoryTest, HistoryKeepsTheLastFiftyPuts) {
  auto reg = OpenOrDie(":memory:");
  ASSERT_TRUE(reg);
  for (int i = 1; i <= 55; ++i) {
    ASSERT_TRUE(reg->Put(kAcme, Record("user-action-record", "1." + std::to_string(i),
                                       UarSchema(std::to_string(i))))
                    .ok());
  }
  auto h = reg->History(kAcme, "user-action-record");
  ASSERT_EQ(h->size(), 50u);
  EXPECT_EQ(h->front().version, "1.55");
  EXPECT_EQ(h->back().version, "1.6");
}

TEST(RegistryHistoryTest, HistoryRefusesABadNameOrScope) {
  auto reg = OpenOrDie(":memory:");
  ASSERT_TRUE(reg);
  EXPECT_EQ(reg->History(kAcme, "Bad Name").status().code(), Code::kInvalidArgument);
  EXPECT_EQ(reg->History({"", "p"}, "contact").status().code(), Code::kInvalidArgument);
}

}  // namespace
}  // namespace structure::registry
