// --shard I/N: the flag's parsing, and which key a record is hashed by.
#include "batch/shard.h"

#include <gtest/gtest.h>

#include "base/hash.h"

namespace structure::batch {
namespace {

TEST(ShardTest, ParsesIOverN) {
  auto s = ParseShard("2/3");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->index, 2u);
  EXPECT_EQ(s->count, 3u);
  ASSERT_TRUE(ParseShard("1/1").ok());
}

TEST(ShardTest, RejectsBadShardsNamingTheFlag) {
  for (const char* bad :
       {"", "3", "/3", "1/", "0/3", "4/3", "1/0", "a/b", "-1/3", "1/3/4", " 1/3", "1/99999999"}) {
    auto s = ParseShard(bad);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.status().code(), Code::kInvalidArgument);
    EXPECT_EQ(s.status().message().rfind("--shard: ", 0), 0u) << s.status().message();
    EXPECT_NE(s.status().message().find(std::string("(was '") + bad + "')"), std::string::npos)
        << s.status().message();
  }
  EXPECT_NE(ParseShard("4/3").status().message().find("I must be 1..3"), std::string::npos);
}

TEST(ShardTest, HashesTheIdTextOrTheLineNumber) {
  EXPECT_EQ(ShardKey(Json("t-17"), 5), "t-17");  // the characters, without JSON quotes
  EXPECT_EQ(ShardKey(Json(int64_t{17}), 5), "17");
  EXPECT_EQ(ShardKey(Json(), 5), "line:5");
  EXPECT_EQ(ShardOf("t-17", 3), Fnv1a64("t-17") % 3 + 1);
  EXPECT_EQ(ShardOf("anything", 1), 1u);
}

TEST(ShardTest, SpreadsIdsOverEveryShard) {
  uint64_t counts[4] = {0, 0, 0, 0};
  for (int i = 0; i < 3000; ++i) ++counts[ShardOf("r" + std::to_string(i), 3)];
  EXPECT_EQ(counts[0], 0u);
  for (int s = 1; s <= 3; ++s) {
    EXPECT_GT(counts[s], 800u) << "shard " << s;
    EXPECT_LT(counts[s], 1200u) << "shard " << s;
  }
}

}  // namespace
}  // namespace structure::batch
