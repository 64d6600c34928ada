// The kind table: every ProviderKind has one row, names and aliases find it, and a provider's key
// is described the same way wherever it is shown.
#include "providers/kinds.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace structure::providers {
namespace {

GetEnvFn FakeEnv(std::map<std::string, std::string> vars) {
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [shared](const char* name) -> const char* {
    auto it = shared->find(name);
    return it == shared->end() ? nullptr : it->second.c_str();
  };
}

TEST(KindsTest, EveryKindHasOneRowFoundByNameAndAlias) {
  std::set<std::string_view> names;
  for (const KindInfo& k : Kinds()) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    EXPECT_EQ(&InfoOf(k.kind), &k);
    EXPECT_EQ(FindKind(k.name), &k);
    if (!k.alias.empty()) EXPECT_EQ(FindKind(k.alias), &k);
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

// One description of the key for `structure providers` and `config check` (they used to
// disagree: config check said "not set" for a provider relying on the SDK's variable).
TEST(KindsTest, DescribeKeyNamesTheVariableReadAndItsState) {
  auto env = FakeEnv({{"OPENAI_API_KEY", "sk"}, {"MY_KEY", ""}});
  KeyStatus sdk = DescribeKey(ProviderKind::kOpenAi, "", "", env);
  EXPECT_EQ(sdk.variable, "OPENAI_API_KEY");
  EXPECT_EQ(sdk.state, KeyState::kSet);
  KeyStatus own = DescribeKey(ProviderKind::kOpenAi, "MY_KEY", "", env);
  EXPECT_EQ(own.variable, "MY_KEY");
  EXPECT_EQ(own.state, KeyState::kNotSet);
  EXPECT_EQ(DescribeKey(ProviderKind::kAnthropic, "", "http://127.0.0.1:8089", env).state,
            KeyState::kNotNeeded);
  KeyStatus ollama = DescribeKey(ProviderKind::kOllama, "", "", env);
  EXPECT_EQ(ollama.variable, "");
  EXPECT_EQ(ollama.state, KeyState::kNotNeeded);
  EXPECT_EQ(KeyStateName(KeyState::kNotSet), "not set");
  EXPECT_EQ(DescribeKey(ProviderKind::kGemini, "", "", FakeEnv({{"GOOGLE_API_KEY", "g"}})).variable,
            "GOOGLE_API_KEY");
}

}  // namespace
}  // namespace structure::providers
