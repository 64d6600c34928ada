// The kind table: every ProviderKind has one row, found by its name and its alias.
#include "providers/kinds.h"

#include <gtest/gtest.h>

#include <set>

namespace structure::providers {
namespace {

TEST(KindsTest, EveryKindHasOneRowFoundByNameAndAlias) {
  std::set<std::string_view> names;
  for (const KindInfo& k : Kinds()) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_EQ(&InfoOf(k.kind), &k);
    EXPECT_EQ(FindKind(k.name), &k);
    if (!k.alias.empty()) {
      EXPECT_EQ(FindKind(k.alias), &k);
    }
    EXPECT_NE(k.build, nullptr);
    EXPECT_NE(k.parse, nullptr);
    EXPECT_FALSE(k.profile.empty());
    EXPECT_EQ(k.path.front(), '/');
  }
  EXPECT_EQ(names.size(), 9u);
  EXPECT_EQ(FindKind("google"), &InfoOf(ProviderKind::kGemini));
  EXPECT_EQ(FindKind("bard"), nullptr);
  EXPECT_EQ(KindNames(),
            "openai, anthropic, gemini, ollama, openai-compatible, openrouter, vllm, llamacpp, "
            "llamafile");
}

}  // namespace
}  // namespace structure::providers
