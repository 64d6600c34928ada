// [providers.<name>] proxy, ca_file, ca_path, verify_tls, connect_timeout_ms as the loader reads
// them (their meaning is checked when the engine starts: tests/providers/network_test.cc).
#include <gtest/gtest.h>

#include <string>

#include "config/config_json.h"
#include "config/load_config.h"

namespace structure::config {
namespace {

const char* kProvider = "[providers.p]\nkind = \"openai\"\n";

std::string ErrorOf(const std::string& text) {
  auto r = ParseConfig(kProvider + text, "test.toml");
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? "" : r.status().message();
}

TEST(NetworkSettingsTest, ReadsEveryKey) {
  auto c = ParseConfig(std::string(kProvider) +
                           "proxy = \"http://proxy.corp:3128\"\nca_file = \"/etc/corp/ca.pem\"\n"
                           "ca_path = \"/etc/corp/certs\"\nverify_tls = false\n"
                           "connect_timeout_ms = 2500\n",
                       "test.toml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  const NetworkSettings& n = c->providers.at("p").network;
  EXPECT_EQ(n.proxy, "http://proxy.corp:3128");
  EXPECT_EQ(n.ca_file, "/etc/corp/ca.pem");
  EXPECT_EQ(n.ca_path, "/etc/corp/certs");
  EXPECT_FALSE(n.verify_tls);
  EXPECT_EQ(n.connect_timeout_ms, 2500);
  Json all = ConfigToJson(*c);
  const Json* j = all.find("providers")->find("p")->find("network");
  ASSERT_NE(j, nullptr);
  EXPECT_EQ(j->find("proxy")->as_string(), "http://proxy.corp:3128");
  EXPECT_FALSE(j->find("verifyTls")->as_bool());
}

TEST(NetworkSettingsTest, UnsetKeysLeaveTheEnvironmentToDecide) {
  auto c = ParseConfig(kProvider, "test.toml");
  ASSERT_TRUE(c.ok());
  const NetworkSettings& n = c->providers.at("p").network;
  EXPECT_FALSE(n.proxy.has_value());
  EXPECT_TRUE(n.ca_file.empty());
  EXPECT_TRUE(n.verify_tls);
  EXPECT_EQ(n.connect_timeout_ms, 10'000);
  // An empty proxy is a choice: no proxy, whatever HTTPS_PROXY says.
  auto direct = ParseConfig(std::string(kProvider) + "proxy = \"\"\n", "test.toml");
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(direct->providers.at("p").network.proxy, "");
}

TEST(NetworkSettingsTest, BadValuesAreNamedWithTheirPlace) {
  EXPECT_EQ(ErrorOf("verify_tls = \"no\"\n"),
            "test.toml:3:14: providers.p.verify_tls: must be true or false");
  EXPECT_EQ(ErrorOf("connect_timeout_ms = 0\n"),
            "test.toml:3:22: providers.p.connect_timeout_ms: must be 1..3600000 (was 0)");
  EXPECT_EQ(ErrorOf("ca_file = \"\"\n"),
            "test.toml:3:11: providers.p.ca_file: must not be empty (leave it out for the system's "
            "CAs)");
  EXPECT_NE(ErrorOf("proxy = \"http://me:secret@proxy:3128\"\n")
                .find("providers.p.proxy: a proxy password does not belong in the config file"),
            std::string::npos);
  EXPECT_NE(ErrorOf("proxy = 3128\n").find("providers.p.proxy: must be a string"),
            std::string::npos);
  EXPECT_NE(ErrorOf("proxies = \"x\"\n").find("providers.p.proxies: unknown key"),
            std::string::npos);
}

}  // namespace
}  // namespace structure::config
