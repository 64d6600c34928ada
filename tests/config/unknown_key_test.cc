// The message of an unknown config key says what to write instead.
#include "config/unknown_key.h"

#include <gtest/gtest.h>

namespace structure::config {
namespace {

TEST(UnknownKeyTest, ATypoNamesTheKeyItWasMeantToBe) {
  std::vector<std::string_view> known = {"model", "maxLoops", "tokenBudget", "evidence"};
  EXPECT_EQ(UnknownKeyMessage("maxloops", known), "unknown key (did you mean maxLoops?)");
  EXPECT_EQ(UnknownKeyMessage("max_loops", known), "unknown key (did you mean maxLoops?)");
  EXPECT_EQ(UnknownKeyMessage("maxLoop", known), "unknown key (did you mean maxLoops?)");
  EXPECT_EQ(UnknownKeyMessage("evidance", known), "unknown key (did you mean evidence?)");
}

TEST(UnknownKeyTest, AnythingElseListsTheKnownKeys) {
  std::vector<std::string_view> known = {"rpm", "tpm"};
  EXPECT_EQ(UnknownKeyMessage("bogus", known), "unknown key (known: rpm, tpm)");
  // Short keys are not taken for typos of each other.
  EXPECT_EQ(UnknownKeyMessage("ttl", known), "unknown key (known: rpm, tpm)");
}

TEST(UnknownKeyTest, ASecretInTheFilePointsToTheVariableKey) {
  std::vector<std::string_view> provider = {"kind", "base_url", "api_key_env", "model"};
  for (const char* key : {"api_key", "apiKey", "key", "token", "API-KEY"}) {
    EXPECT_EQ(UnknownKeyMessage(key, provider),
              "unknown key: a secret is never written in the config file; put it in an "
              "environment variable and name the variable with api_key_env = \"VARIABLE\"")
        << key;
  }
  std::vector<std::string_view> stores = {"database", "shared", "shared_password_env"};
  EXPECT_NE(UnknownKeyMessage("password", stores).find("shared_password_env = \"VARIABLE\""),
            std::string::npos);
  // A table without such a key: the plain message.
  EXPECT_EQ(UnknownKeyMessage("password", {"a"}), "unknown key (known: a)");
}

}  // namespace
}  // namespace structure::config
