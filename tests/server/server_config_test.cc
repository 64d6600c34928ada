#include "server/server_config.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "config/load_config.h"
#include "server/auth.h"

namespace structure::server {
namespace {

constexpr const char* kHash = "6371cb7a907cc8f10740229732c4b6164b285169494b85304468313513427878";

TEST(ServerConfig, ReadsListenLimitsAndKeys) {
  std::string toml = std::string(R"(
[server]
listen = "0.0.0.0:9000"
max_prompt_bytes = 100
max_loops = 4
batch_window_us = 250

[[server.keys]]
sha256 = ")") + kHash +
                     R"("
tenant = "acme"
projects = ["billing", "ops"]
)";
  auto c = ParseServerConfig(toml, "s.toml");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->host, "0.0.0.0");
  EXPECT_EQ(c->port, 9000);
  EXPECT_EQ(c->limits.max_prompt_bytes, 100u);
  EXPECT_EQ(c->limits.max_loops, 4);
  EXPECT_EQ(c->batch_window_us, 250);
  EXPECT_EQ(ServerConfig().batch_window_us, 1000);
  ASSERT_EQ(c->keys.size(), 1u);
  EXPECT_EQ(c->keys[0].tenant, "acme");
  EXPECT_EQ(c->keys[0].name, "acme");
  EXPECT_EQ(c->keys[0].projects, (std::vector<std::string>{"billing", "ops"}));
}

TEST(ServerConfig, ReadsATenantsCheckCommand) {
  auto r = ParseServerConfig(
      "[server.tenants.acme]\ncheck = \"python3 check.py --strict\"\n"
      "check_timeout_ms = 2500\n[server.tenants.globex]\n",
      "s.toml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->checks.size(), 1u);
  EXPECT_EQ(r->checks.at("acme").command, "python3 check.py --strict");
  EXPECT_EQ(r->checks.at("acme").timeout_ms, 2500);
}

TEST(ServerConfig, ErrorsNameTheKey) {
  struct Case {
    const char* toml;
    const char* message;
  };
  const Case cases[] = {
      {"[server]\nlisten = \"host:99999\"", "s.toml:2:10: server.listen: port must be 0..65535"},
      {"[server]\nmax_loops = 11", "s.toml:2:13: server.max_loops: must be 1..10 (was 11)"},
      {"[server]\nbogus = 1", "s.toml:2:9: server.bogus: unknown key"},
      {"[server]\nbatch_window_us = -1", "s.toml:2:19: server.batch_window_us: must be 0..100000"},
      {"[server]\n[[server.keys]]\nsha256 = \"abc\"\ntenant = \"t\"",
       "server.keys[0].sha256: must be 64 lowercase hex digits"},
      {"[server]\nmin_loops = 5\nmax_loops = 3", "server.min_loops: must be <= max_loops"},
      {"[server\n", "s.toml:1:"},
      {"[server.tenants.acme]\ncheck = \"  \"",
       "s.toml:2:9: server.tenants.acme.check: must be a command, not empty"},
      {"[server.tenants.acme]\ncheck_timeout_ms = 5",
       "server.tenants.acme.check_timeout_ms: needs check"},
      {"[server.tenants.acme]\ncheck = \"x\"\ncheck_timeout_ms = 0",
       "server.tenants.acme.check_timeout_ms: must be 1..3600000 (was 0)"},
      {"[server.tenants.acme]\nchek = \"x\"", "server.tenants.acme.chek: unknown key"},
      {"[server]\ntenants = 3", "server.tenants: must be a table"},
  };
  for (const Case& c : cases) {
    auto r = ParseServerConfig(c.toml, "s.toml");
    ASSERT_FALSE(r.ok()) << c.toml;
    EXPECT_NE(r.status().message().find(c.message), std::string::npos) << r.status().message();
  }
}

TEST(ServerConfig, OneFileServesEngineAndServerWithTrueLineNumbers) {
  std::string path = ::testing::TempDir() + "/serve.toml";
  {
    std::ofstream f(path);
    f << "[server]\nlisten = \"127.0.0.1:0\"\n\n[providers.sim2]\nkind = \"openai\"\nmodel = "
         "\"m\"\n\n"
         "[aliases]\n\"default:fast\" = \"sim2/m\"\n\"default:analyze\" = \"sim2/m\"\n\n"
         "[structure]\nmodel = \"default:fast\"\n";
  }
  auto file = LoadServeConfigFile(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_TRUE(file->server.has_value());
  EXPECT_EQ(file->server->host, "127.0.0.1");
  auto engine = config::ParseConfig(file->text, path);
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  EXPECT_EQ(engine->providers.count("sim2"), 1u);

  // An engine error after the [server] table names its real line (7).
  {
    std::ofstream f(path);
    f << "[server]\nlisten = \"127.0.0.1:0\"\n\n[providers.sim2]\nkind = \"openai\"\nmodel = "
         "\"m\"\n"
         "bogus = 1\n";
  }
  file = LoadServeConfigFile(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  auto bad = config::ParseConfig(file->text, path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(path + ":7"), std::string::npos) << bad.status().message();
  EXPECT_NE(bad.status().message().find("providers.sim2.bogus"), std::string::npos)
      << bad.status().message();

  // Without [server] the file has no server part.
  {
    std::ofstream f(path);
    f << "[structure]\nmax_loops = 2\n";
  }
  file = LoadServeConfigFile(path);
  ASSERT_TRUE(file.ok());
  EXPECT_FALSE(file->server.has_value());
  std::remove(path.c_str());
}

TEST(Auth, KeysMapToTheirTenantAndProjects) {
  KeyRing ring({ApiKey{"a", kHash, "acme", {"billing"}}});
  http::HttpRequest req;
  EXPECT_EQ(ring.Authenticate(req).status().code(), Code::kUnauthenticated);
  req.headers = {{"Authorization", "Bearer nope"}};
  EXPECT_EQ(ring.Authenticate(req).status().code(), Code::kUnauthenticated);
  req.headers = {{"authorization", "bearer key-acme"}};
  auto who = ring.Authenticate(req);
  ASSERT_TRUE(who.ok());
  EXPECT_EQ(who->tenant, "acme");
  req.headers = {{"X-Api-Key", "key-acme"}};
  ASSERT_TRUE(ring.Authenticate(req).ok());

  auto tenant = Authorize(*who, "");
  ASSERT_TRUE(tenant.ok());
  EXPECT_EQ(tenant->tenant, "acme");
  EXPECT_EQ(tenant->project, "");
  EXPECT_EQ(Authorize(*who, "billing")->project, "billing");
  EXPECT_EQ(Authorize(*who, "payroll").status().code(), Code::kPermissionDenied);
  Principal all{"x", "acme", {"*"}};
  EXPECT_TRUE(Authorize(all, "anything").ok());
}

}  // namespace
}  // namespace structure::server
