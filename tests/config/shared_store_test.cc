// stores.shared and its companions: the URL forms accepted, every refusal naming the key, the
// fallback share, and the effective configuration never showing the password.
#include "config/shared_store.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "config/config_json.h"
#include "config/load_config.h"

namespace structure::config {
namespace {

TEST(SharedStoreUrlTest, ReadsHostPortDatabaseAndUser) {
  auto u = ParseSharedStoreUrl("redis://10.0.0.5:6380/2");
  ASSERT_TRUE(u.ok()) << u.status().message();
  EXPECT_EQ(u->host, "10.0.0.5");
  EXPECT_EQ(u->port, 6380);
  EXPECT_EQ(u->db, 2);
  u = ParseSharedStoreUrl("redis://cache.internal");
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->host, "cache.internal");
  EXPECT_EQ(u->port, 6379);
  EXPECT_EQ(u->db, 0);
  u = ParseSharedStoreUrl("redis://worker@[::1]:7000/");
  ASSERT_TRUE(u.ok()) << u.status().message();
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, 7000);
  EXPECT_EQ(u->username, "worker");
}

TEST(SharedStoreUrlTest, RefusesWhatItCannotUseAndSaysWhy) {
  struct Case {
    const char* url;
    const char* says;
  };
  const Case cases[] = {
      {"rediss://h:6379/0", "Debian 12's hiredis 0.14 has no TLS"},
      {"http://h:6379", "must be a redis:// URL"},
      {"127.0.0.1:6379", "must be a redis:// URL"},
      {"redis://:pw@h:6379/0", "a password in the URL is not allowed"},
      {"redis://user:pw@h:6379/0", "shared_password_env"},
      {"redis://:6379/0", "the host is missing"},
      {"redis://h:0/0", "the port must be 1..65535"},
      {"redis://h:70000/0", "the port must be 1..65535"},
      {"redis://h:port/0", "the port must be 1..65535"},
      {"redis://h:/0", "the port after ':' is missing"},
      {"redis://h:6379/db1", "the database after '/' must be a number"},
      {"redis://[::1:6379/0", "unclosed '['"},
  };
  for (const Case& c : cases) {
    auto u = ParseSharedStoreUrl(c.url);
    ASSERT_FALSE(u.ok()) << c.url;
    EXPECT_EQ(u.status().code(), Code::kInvalidArgument);
    EXPECT_NE(u.status().message().find(c.says), std::string::npos)
        << c.url << ": " << u.status().message();
    if (std::string(c.url).find("pw") != std::string::npos) {
      EXPECT_EQ(u.status().message().find("pw@"), std::string::npos) << u.status().message();
    }
  }
}

TEST(SharedStoreConfigTest, ReadsTheStoresKeysAndTheFallbackShare) {
  auto c = ParseConfig(
      "[stores]\nshared = \"redis://127.0.0.1:6379/0\"\nshared_password_env = "
      "\"STRUCTURE_TEST_REDIS_PW\"\n"
      "shared_expected_processes = 4\n",
      "t.toml");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->stores.shared, "redis://127.0.0.1:6379/0");
  EXPECT_DOUBLE_EQ(FallbackShare(c->stores), 0.25);
  setenv("STRUCTURE_TEST_REDIS_PW", "hunter2-secret", 1);
  std::string json = ToJson(ConfigToJson(*c));
  unsetenv("STRUCTURE_TEST_REDIS_PW");
  EXPECT_NE(json.find("\"shared\":{\"url\":\"redis://127.0.0.1:6379/0\""), std::string::npos)
      << json;
  EXPECT_NE(json.find("\"password\":\"set\""), std::string::npos) << json;
  EXPECT_EQ(json.find("hunter2"), std::string::npos) << json;
  EXPECT_NE(json.find("\"fallbackShare\":0.25"), std::string::npos) << json;

  c = ParseConfig("[stores]\nshared = \"redis://h\"\nshared_fallback_share = 0.5\n", "t.toml");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_DOUBLE_EQ(FallbackShare(c->stores), 0.5);
  EXPECT_DOUBLE_EQ(FallbackShare(DefaultConfig().stores), 1.0);
  EXPECT_NE(ToJson(ConfigToJson(DefaultConfig())).find("\"shared\":null"), std::string::npos);
}

TEST(SharedStoreConfigTest, BadValuesNameTheKeyAndTheLine) {
  struct Case {
    const char* toml;
    const char* says;
  };
  const Case cases[] = {
      {"[stores]\nshared = \"rediss://h/0\"\n",
       "t.toml:2:10: stores.shared: rediss:// (TLS) is not supported"},
      {"[stores]\nshared = 6379\n", "t.toml:2:10: stores.shared: must be a string"},
      {"[stores]\nshared = \"redis://h\"\nshared_fallback_share = 0\n",
       "t.toml:3:25: stores.shared_fallback_share: must be > 0 and <= 1 (was 0)"},
      {"[stores]\nshared_fallback_share = 1.5\n",
       "stores.shared_fallback_share: must be > 0 and <= 1 (was 1.5)"},
      {"[stores]\nshared_expected_processes = 0\n",
       "stores.shared_expected_processes: must be 1..100000 (was 0)"},
      {"[stores]\nshared_expected_processes = 2.5\n",
       "stores.shared_expected_processes: must be a whole number"},
      {"[stores]\nshared_pasword_env = \"X\"\n", "stores.shared_pasword_env: unknown key"},
  };
  for (const Case& c : cases) {
    auto r = ParseConfig(c.toml, "t.toml");
    ASSERT_FALSE(r.ok()) << c.toml;
    EXPECT_NE(r.status().message().find(c.says), std::string::npos) << r.status().message();
  }
}

}  // namespace
}  // namespace structure::config
