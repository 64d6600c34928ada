// Engine::Create's early returns: each one gives a clear status and leaves nothing running (no
// crash in the destructor of what was started, no leak under ASan). No provider is called.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <future>
#include <string>

#include "structure/engine.h"

namespace structure {
namespace {

Result<std::unique_ptr<Engine>> CreateFrom(const std::string& toml, EngineOptions o = {}) {
  auto cfg = Config::Parse(toml, "create_test.toml");
  EXPECT_TRUE(cfg.ok()) << cfg.status().message();
  if (cfg.ok()) o.config = std::move(*cfg);
  if (o.database.empty()) o.database = ":memory:";
  return Engine::Create(std::move(o));
}

std::string TempDir(const std::string& name) {
  std::string dir = ::testing::TempDir() + "engine_create_" + std::to_string(getpid()) + "_" + name;
  mkdir(dir.c_str(), 0755);
  return dir;
}

TEST(EngineCreateTest, UnknownProviderIsAnErrorNotACrash) {
  EngineOptions o;
  o.provider = "nosuch";
  o.database = ":memory:";
  auto e = Engine::Create(std::move(o));
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("unknown provider 'nosuch'"), std::string::npos)
      << e.status().message();
}

TEST(EngineCreateTest, BadConfigReferenceFailsBeforeAnythingStarts) {
  // An alias that names no provider is refused where the config is read, with its place.
  auto cfg = Config::Parse("[aliases]\n\"default:fast\" = \"missing\"\n");
  ASSERT_FALSE(cfg.ok());
  EXPECT_NE(cfg.status().message().find("aliases.default:fast: unknown provider 'missing'"),
            std::string::npos)
      << cfg.status().message();
}

TEST(EngineCreateTest, BadProfileOfALaterProviderIsNamed) {
  // Providers are made in name order: "a" gets a pool, then "b" fails.
  auto e = CreateFrom(R"(
[providers.a]
kind = "openai"
base_url = "http://127.0.0.1:9"
[providers.b]
kind = "openai"
base_url = "http://127.0.0.1:9"
profile = "nosuch"
[aliases]
"default:fast" = "a"
"default:analyze" = "a"
)");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("providers.b.profile"), std::string::npos)
      << e.status().message();
}

TEST(EngineCreateTest, BadProfileOverridesAreNamed) {
  auto e = CreateFrom(R"(
[providers.a]
kind = "openai"
base_url = "http://127.0.0.1:9"
[providers.a.profile_overrides]
no_such_capability = 3
)");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("providers.a.profile_overrides"), std::string::npos)
      << e.status().message();
}

TEST(EngineCreateTest, UnopenableDatabaseIsAnError) {
  EngineOptions o;
  o.database = TempDir("db") + "/no/such/dir/x.db";
  auto e = Engine::Create(std::move(o));
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("x.db"), std::string::npos) << e.status().message();
}

TEST(EngineCreateTest, BadBundledSchemaIsAnError) {
  std::string dir = TempDir("registry");
  std::ofstream(dir + "/broken.json") << "{\"type\": ";
  EngineOptions o;
  o.registry_dir = dir;
  o.database = ":memory:";
  auto e = Engine::Create(std::move(o));
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("broken"), std::string::npos) << e.status().message();
}

// Errors name the options as the embedder names them (EngineOptions::names), by default as the
// fields of EngineOptions; never as some CLI's flags.
TEST(EngineCreateTest, ErrorsNameTheOptionsAsTheEmbedderNamesThem) {
  unsetenv("STRUCTURE_TEST_UNSET_KEY");
  EngineOptions o;
  o.base_url = "ftp://example";
  Status by_default = Engine::Check(o);
  EXPECT_EQ(by_default.message().rfind("base_url: ", 0), 0u) << by_default.message();
  o.names.base_url = "STRUCTURE_BASE_URL";
  Status named = Engine::Check(o);
  EXPECT_EQ(named.message().rfind("STRUCTURE_BASE_URL: ", 0), 0u) << named.message();

  EngineOptions dir;
  dir.registry_dir = TempDir("names") + "/missing";
  dir.names.registry_dir = "schemas_dir";
  Status missing = Engine::Check(dir);
  EXPECT_EQ(missing.message().rfind("schemas_dir: the bundled schemas directory", 0), 0u)
      << missing.message();

  unsetenv("OPENAI_API_KEY");  // a built-in provider with no key
  EngineOptions key;
  key.provider = "openai";
  Status unnamed = Engine::Check(key);
  EXPECT_EQ(unnamed.message().rfind("provider openai: no API key", 0), 0u) << unnamed.message();
  EXPECT_NE(unnamed.message().find("(or give base_url URL for a local server)"), std::string::npos)
      << unnamed.message();
  key.names.provider = "the model setting (provider openai)";
  Status labelled = Engine::Check(key);
  EXPECT_EQ(labelled.message().rfind("the model setting (provider openai): no API key", 0), 0u)
      << labelled.message();
}

TEST(EngineCreateTest, AGoodConfigStillStartsAfterFailedAttempts) {
  EngineOptions bad;
  bad.provider = "nosuch";
  bad.database = ":memory:";
  ASSERT_FALSE(Engine::Create(std::move(bad)).ok());
  EngineOptions good;
  good.database = ":memory:";
  auto e = Engine::Create(std::move(good));
  ASSERT_TRUE(e.ok()) << e.status().message();
}

// `structure config check` runs Engine::Check: it must refuse exactly what Create refuses, with
// the same words, and never pass a configuration that run then refuses.
TEST(EngineCreateTest, CheckRefusesWhatCreateRefusesWithTheSameMessage) {
  unsetenv("STRUCTURE_TEST_UNSET_KEY");
  unsetenv("STRUCTURE_TEST_UNSET_PASSWORD");
  struct Case {
    const char* name;
    const char* toml;
    const char* want;
  };
  const Case cases[] = {
      {"key variable unset",
       "[providers.p]\nkind = \"openai\"\napi_key_env = \"STRUCTURE_TEST_UNSET_KEY\"\n",
       "STRUCTURE_TEST_UNSET_KEY"},
      {"registry_dir missing", "[stores]\nregistry_dir = \"no/such/schemas\"\n",
       "stores.registry_dir: the bundled schemas directory \"no/such/schemas\" (relative to the "
       "working directory "},
      {"registry_dir a file", "[stores]\nregistry_dir = \"/dev/null\"\n",
       "stores.registry_dir: the bundled schemas directory \"/dev/null\" is not a directory"},
      {"database folder missing", "[stores]\ndatabase = \"/no/such/folder/s.db\"\n",
       "stores.database: the folder of \"/no/such/folder/s.db\" does not exist"},
      {"shared password unset",
       "[stores]\nshared = \"redis://127.0.0.1:1/0\"\nshared_password_env = "
       "\"STRUCTURE_TEST_UNSET_PASSWORD\"\n",
       "STRUCTURE_TEST_UNSET_PASSWORD is not set"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto cfg = Config::Parse(c.toml, "check_test.toml");
    ASSERT_TRUE(cfg.ok()) << cfg.status().message();
    EngineOptions o;
    o.config = *cfg;
    Status checked = Engine::Check(o);
    ASSERT_FALSE(checked.ok());
    EXPECT_NE(checked.message().find(c.want), std::string::npos) << checked.message();
    auto created = Engine::Create(o);
    ASSERT_FALSE(created.ok());
    EXPECT_EQ(created.status().message(), checked.message());
  }
  // --registry-dir is refused the same way.
  EngineOptions o;
  o.registry_dir = "no/such/dir";
  Status checked = Engine::Check(o);
  EXPECT_NE(checked.message().find("registry_dir: the bundled schemas directory \"no/such/dir\""),
            std::string::npos)
      << checked.message();
  EXPECT_EQ(Engine::Create(o).status().message(), checked.message());
}

// batch cancels on a second Ctrl-C by destroying the engine on its writer thread, not the one
// that created it; that used to wait forever in ~actor_system.
TEST(EngineCreateTest, DestroyedOnAnotherThreadItStops) {
  EngineOptions o;
  o.database = ":memory:";
  auto e = Engine::Create(std::move(o));
  ASSERT_TRUE(e.ok()) << e.status().message();
  auto engine = std::make_shared<std::unique_ptr<Engine>>(std::move(*e));
  auto done = std::async(std::launch::async, [engine] { engine->reset(); });
  // Generous: stopping takes milliseconds; a hang never ends.
  ASSERT_EQ(done.wait_for(std::chrono::seconds(120)), std::future_status::ready)
      << "~Engine on another thread did not return";
}

}  // namespace
}  // namespace structure
