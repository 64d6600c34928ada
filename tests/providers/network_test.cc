#include "providers/transport/network.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "tests/providers/fake_env.h"

namespace structure::providers {
namespace {

TEST(NetworkTest, ProxyFromEnvReadsTheVariableOfTheSchemeLowerCaseFirst) {
  auto env = FakeEnv({{"https_proxy", "http://lower:3128"},
                      {"HTTPS_PROXY", "http://upper:3128"},
                      {"HTTP_PROXY", "proxy.corp:8080"}});
  EXPECT_EQ(ProxyFromEnv("https://api.openai.com", env), "http://lower:3128");
  // No scheme means http://, as curl reads it.
  EXPECT_EQ(ProxyFromEnv("http://10.0.0.9:8000", env), "http://proxy.corp:8080");
  EXPECT_EQ(ProxyFromEnv("https://api.openai.com", FakeEnv({{"HTTPS_PROXY", "http://u:1"}})),
            "http://u:1");
  EXPECT_EQ(ProxyFromEnv("https://api.openai.com", FakeEnv({{"ALL_PROXY", "socks5h://s:1080"}})),
            "socks5h://s:1080");
  EXPECT_EQ(ProxyFromEnv("https://api.openai.com", FakeEnv({})), "");
  // An http proxy variable says nothing about https URLs.
  EXPECT_EQ(ProxyFromEnv("https://api.openai.com", FakeEnv({{"http_proxy", "http://p:1"}})), "");
}

TEST(NetworkTest, NoProxySkipsMatchingHosts) {
  auto env = FakeEnv({{"HTTPS_PROXY", "http://proxy:3128"},
                      {"NO_PROXY", "localhost, 127.0.0.1,.internal.corp,10.0.0.0/8,[::1]"}});
  EXPECT_EQ(ProxyFromEnv("https://localhost:8443", env), "");
  EXPECT_EQ(ProxyFromEnv("https://127.0.0.1:8443/v1", env), "");
  EXPECT_EQ(ProxyFromEnv("https://[::1]:8443", env), "");
  EXPECT_EQ(ProxyFromEnv("https://llm.internal.corp", env), "");
  EXPECT_EQ(ProxyFromEnv("https://10.20.30.40:8000", env), "");
  EXPECT_EQ(ProxyFromEnv("https://api.openai.com", env), "http://proxy:3128");
  EXPECT_EQ(ProxyFromEnv("https://127.0.0.2", env), "http://proxy:3128");
}

TEST(NetworkTest, NoProxyMatchesDomainsNotSubstrings) {
  EXPECT_TRUE(NoProxyMatches("openai.com", "api.openai.com"));
  EXPECT_TRUE(NoProxyMatches(".openai.com", "api.openai.com"));
  EXPECT_TRUE(NoProxyMatches("OpenAI.com:443", "API.openai.com"));
  EXPECT_TRUE(NoProxyMatches("*", "anything"));
  EXPECT_FALSE(NoProxyMatches("ai.com", "api.openai.com"));
  EXPECT_FALSE(NoProxyMatches("", "localhost"));
  EXPECT_FALSE(NoProxyMatches("10.0.0.0/8", "11.0.0.1"));
  EXPECT_FALSE(NoProxyMatches("10.0.0.0/99", "10.0.0.1"));
}

TEST(NetworkTest, ChecksProxyUrls) {
  EXPECT_TRUE(CheckProxyUrl("http://proxy.corp:3128").ok());
  EXPECT_TRUE(CheckProxyUrl("proxy.corp:3128").ok());
  EXPECT_TRUE(CheckProxyUrl("socks5h://127.0.0.1:1080").ok());
  EXPECT_TRUE(CheckProxyUrl("http://user:pw@proxy:3128").ok());
  EXPECT_EQ(CheckProxyUrl("ftp://proxy:21").message(),
            "not a proxy URL: 'ftp://proxy:21' (the scheme must be http, https, socks4, socks4a, "
            "socks5 or socks5h)");
  EXPECT_FALSE(CheckProxyUrl("http://:3128").ok());
  EXPECT_FALSE(CheckProxyUrl("http://proxy:0").ok());
  EXPECT_FALSE(CheckProxyUrl("http://proxy:99999").ok());
  EXPECT_FALSE(CheckProxyUrl("http://proxy:").ok());
  EXPECT_FALSE(CheckProxyUrl("http://pro xy:1").ok());
  // A password never shows in a message.
  EXPECT_EQ(CheckProxyUrl("gopher://u:secret@p:1").message().find("secret"), std::string::npos);
  EXPECT_EQ(RedactProxy("http://u:secret@p:1"), "http://***@p:1");
  EXPECT_EQ(RedactProxy("http://p:1"), "http://p:1");
}

class ResolveNetworkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/network_test_XXXXXX";
    dir_ = mkdtemp(tmpl);
    std::ofstream(dir_ + "/ca.pem") << "-----BEGIN CERTIFICATE-----\nAA==\n"
                                    << "-----END CERTIFICATE-----\n";
    std::ofstream(dir_ + "/key.pem") << "-----BEGIN PRIVATE KEY-----\n";
  }
  void TearDown() override {
    int ignored = std::system(("rm -rf '" + dir_ + "'").c_str());
    (void)ignored;
  }
  std::string dir_;
};

TEST_F(ResolveNetworkTest, ConfigOverridesTheEnvironment) {
  auto env = FakeEnv({{"HTTPS_PROXY", "http://env:1"}, {"SSL_CERT_FILE", dir_ + "/ca.pem"}});
  NetworkConfig c;
  std::string warning;
  auto n = ResolveNetwork(c, "https://api.openai.com", env, &warning);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(n->proxy, "http://env:1");
  EXPECT_EQ(n->ca_file, dir_ + "/ca.pem");
  c.proxy = "http://config:2";
  EXPECT_EQ(ResolveNetwork(c, "https://api.openai.com", env, &warning)->proxy, "http://config:2");
  c.proxy = "";  // no proxy, whatever the environment says
  EXPECT_EQ(ResolveNetwork(c, "https://api.openai.com", env, &warning)->proxy, "");
  EXPECT_TRUE(warning.empty());
}

TEST_F(ResolveNetworkTest, RefusesCaFilesThatCannotServe) {
  NetworkConfig c;
  c.ca_file = dir_ + "/missing.pem";
  auto n = ResolveNetwork(c, "https://a.example", FakeEnv({}), nullptr);
  EXPECT_EQ(n.status().message(),
            "ca_file: cannot read '" + dir_ + "/missing.pem' (No such file or directory)");
  c.ca_file = dir_ + "/key.pem";
  EXPECT_NE(ResolveNetwork(c, "https://a.example", FakeEnv({}), nullptr)
                .status()
                .message()
                .find("holds no PEM certificate"),
            std::string::npos);
  c.ca_file = dir_;
  EXPECT_NE(ResolveNetwork(c, "https://a.example", FakeEnv({}), nullptr)
                .status()
                .message()
                .find("is not a file"),
            std::string::npos);
  c.ca_file.clear();
  c.ca_path = dir_ + "/ca.pem";
  EXPECT_NE(ResolveNetwork(c, "https://a.example", FakeEnv({}), nullptr)
                .status()
                .message()
                .find("is not a directory"),
            std::string::npos);
  c.ca_path.clear();
  auto env = FakeEnv({{"SSL_CERT_FILE", "/nonexistent/ca.pem"}});
  EXPECT_EQ(ResolveNetwork(c, "https://a.example", env, nullptr).status().message(),
            "SSL_CERT_FILE (environment): cannot read '/nonexistent/ca.pem' (No such file or "
            "directory)");
  c.proxy = "ftp://p:1";
  EXPECT_EQ(ResolveNetwork(c, "https://a.example", FakeEnv({}), nullptr).status().message(),
            "proxy: not a proxy URL: 'ftp://p:1' (the scheme must be http, https, socks4, "
            "socks4a, socks5 or socks5h)");
}

TEST_F(ResolveNetworkTest, WarnsLoudlyWhenCertificatesOfARemoteHostAreNotChecked) {
  NetworkConfig c;
  c.verify_tls = false;
  std::string warning;
  ASSERT_TRUE(ResolveNetwork(c, "https://127.0.0.1:8443", FakeEnv({}), &warning).ok());
  EXPECT_TRUE(warning.empty());
  ASSERT_TRUE(ResolveNetwork(c, "https://llm.corp.example", FakeEnv({}), &warning).ok());
  EXPECT_EQ(warning.rfind("WARNING: verify_tls = false for llm.corp.example:", 0), 0u) << warning;
}

}  // namespace
}  // namespace structure::providers
