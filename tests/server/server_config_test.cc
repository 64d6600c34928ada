#include "apps/server/server_config.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "apps/server/auth.h"
#include "config/load_config.h"

namespace structure::server {
namespace {

constexpr const char* kHash = "6371cb7a907cc8f10740229732c4b6164b285169494b85304468313513427878";

TEST(ServerConfig, ReadsListenLimitsAndKeys) {
  std::string toml = std::string(R"(
[server]
listen = "0.0.0.0:9000"
max_prompt_bytes = 100
max_loops = 4

[[server.keys]]
sha256 = ")") + kHash + R"("
tenant = "acme"
projects = ["billing", "ops"]
)";
  auto c = ParseServerConfig(toml, "s.toml");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->host, "0.0.0.0");
  EXPECT_EQ(c->port, 9000);
  EXPECT_EQ(c->limits.max_prompt_bytes, 100u);
  EXPECT_EQ(c->limits.max_loops, 4);
  ASSERT_EQ(c->keys.size(), 1u);
  EXPECT_EQ(c->keys[0].tenant, "acme");
  EXPECT_EQ(c->keys[0].name, "acme");
  EXPECT_EQ(c->keys[0].projects, (std::vector<std::string>{"billing", "ops"}));
}

TEST(ServerConfig, ErrorsNameTheKey) {
  struct Case {
    const char* toml;
    const char* message;
  };
  const Case cases[] = {
      {"[server]\nlisten = \"host:99999\"", "s.toml:2: server.listen: port must be 0..65535"},
      {"[server]\nmax_loops = 11", "s.toml:2: server.max_loops: must be 1..10 (was 11)"},
      {"[server]\nbogus = 1", "s.toml:2: server.bogus: unknown key"},
      {"[server]\n[[server.keys]]\nsha256 = \"abc\"\ntenant = \"t\"",
       "server.keys[0].sha256: must be 64 lowercase hex digits"},
      {"[server]\nmin_loops = 5\nmax_loops = 3", "server.min_loops: must be <= max_loops"},
      {"[server\n", "s.toml:1:"},
  };
  for (const Case& c : cases) {
    auto r = ParseServerConfig(c.toml, "s.toml");
    ASSERT_FALSE(r.ok()) << c.toml;
    EXPECT_NE(r.status().message().find(c.message), std::string::npos) << r.status().message();
  }
}

TEST(ServerConfig, SplitKeepsTheEngineTablesForTheEngineLoader) {
  std::string path = ::testing::TempDir() + "/split.toml";
  {
    std::ofstream f(path);
    f << "[providers.sim2]\nkind = \"openai\"\nmodel = \"m\"\n\n[aliases]\n\"default:fast\" = \"sim2/m\"\n"
         "\"default:analyze\" = \"sim2/m\"\n\n[structure]\nmodel = \"default:fast\"\n\n"
         "[server]\nlisten = \"127.0.0.1:0\"\n";
  }
  auto split = LoadSplitConfig(path);
  ASSERT_TRUE(split.ok()) << split.status().message();
  EXPECT_TRUE(split->has_server);
  EXPECT_EQ(split->engine_toml.find("server"), std::string::npos);
  auto engine = config::ParseConfig(split->engine_toml, path);
  ASSERT_TRUE(engine.ok()) << engine.status().message() << "\n" << split->engine_toml;
  EXPECT_EQ(engine->providers.count("sim2"), 1u);
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
