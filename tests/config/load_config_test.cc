#include "config/load_config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "config/config_json.h"

namespace structure::config {
namespace {

Result<EngineConfig> Parse(const std::string& text) { return ParseConfig(text, "test.toml"); }

std::string ErrorOf(const std::string& text) {
  auto r = Parse(text);
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? "" : r.status().message();
}

TEST(LoadConfigTest, RunsWithNoFileOnTheSimulatorDefault) {
  EngineConfig c = DefaultConfig();
  ASSERT_TRUE(CheckConfig(c).ok());
  ASSERT_EQ(c.providers.count("simulator"), 1u);
  EXPECT_EQ(c.aliases.at("default:fast").provider, "simulator");
  EXPECT_EQ(c.settings.max_loops, 3);
  EXPECT_DOUBLE_EQ(c.settings.confidence_threshold, 0.8);
}

TEST(LoadConfigTest, EmptyFileKeepsDefaults) {
  auto r = Parse("");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->providers.count("simulator"), 1u);
}

TEST(LoadConfigTest, ReadsTheExampleConfig) {
  auto r = LoadConfigFile(std::string(STRUCTURE_SOURCE_DIR) + "/examples/structure.toml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const EngineConfig& c = *r;
  EXPECT_EQ(c.providers.count("simulator"), 0u);  // the file names its own providers
  const ProviderConfig& openai = c.providers.at("openai");
  EXPECT_EQ(openai.kind, "openai");
  EXPECT_EQ(openai.api_key_env, "OPENAI_API_KEY");
  EXPECT_EQ(openai.limits.max_concurrency, 256);
  EXPECT_DOUBLE_EQ(openai.limits.requests_per_minute, 500);
  EXPECT_EQ(openai.limits.timeout_ms, 60000);
  EXPECT_EQ(openai.limits.batch_window_us, 0);  // commented out in the file: the default
  EXPECT_EQ(c.aliases.at("default:analyze").provider, "anthropic");
  EXPECT_EQ(c.aliases.at("default:fast").model, "gpt-4o-mini");
  EXPECT_EQ(c.providers.at("gemini")
                .model_profiles.at("gemini-2.0-flash")
                .find("max_enum_values")
                ->as_int(),
            100);
  EXPECT_EQ(*c.tenants.at("acme").settings.max_loops, 5);
  EXPECT_DOUBLE_EQ(*c.tenants.at("acme").projects.at("billing").confidence_threshold, 0.9);
}

TEST(LoadConfigTest, SyntaxErrorGivesFileLineColumn) {
  std::string e = ErrorOf("[structure]\nmaxLoops = = 3\n");
  EXPECT_EQ(e.rfind("test.toml:2:", 0), 0u) << e;
}

TEST(LoadConfigTest, NegativeLimitIsNamedPrecisely) {
  std::string e =
      ErrorOf("[providers.p]\nkind = \"openai\"\n[providers.p.limits]\nmax_concurrency = -1\n");
  EXPECT_NE(e.find("providers.p.limits.max_concurrency: must be > 0 (was -1)"), std::string::npos)
      << e;
  e = ErrorOf("[providers.p]\nkind = \"openai\"\n[providers.p.limits]\nrequests_per_minute = -5\n");
  EXPECT_NE(e.find("providers.p.limits.requests_per_minute: must be >= 0 (was -5)"),
            std::string::npos)
      << e;
  e = ErrorOf("[providers.p]\nkind = \"openai\"\n[providers.p.limits]\ntokens_per_minute = -1.5\n");
  EXPECT_NE(e.find("tokens_per_minute: must be >= 0 (was -1.5)"), std::string::npos) << e;
  e = ErrorOf("[providers.p]\nkind = \"openai\"\n[providers.p.limits]\nbatch_window_us = -1\n");
  EXPECT_NE(e.find("providers.p.limits.batch_window_us: must be >= 0 (was -1)"), std::string::npos)
      << e;
  e = ErrorOf("[providers.p]\nkind = \"openai\"\n[providers.p.limits]\ntimeout_ms = 0\n");
  EXPECT_NE(e.find("timeout_ms: must be > 0 (was 0)"), std::string::npos) << e;
}

TEST(LoadConfigTest, ReadsAndChecksTheProviderBatchTable) {
  auto r = Parse(
      "[providers.p]\nkind = \"openai\"\n[providers.p.batch]\ndiscount = 0.4\nmax_requests = 7\n"
      "max_bytes = 1000\npoll_ms = 20\nmax_poll_ms = 100\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const BatchSettings& b = r->providers.at("p").batch;
  EXPECT_DOUBLE_EQ(b.discount, 0.4);
  EXPECT_EQ(b.max_requests, 7);
  EXPECT_EQ(b.max_bytes, 1000);
  EXPECT_EQ(b.poll_ms, 20);
  EXPECT_EQ(b.max_poll_ms, 100);
  EXPECT_EQ(Parse("[providers.p]\nkind = \"openai\"\n")->providers.at("p").batch.discount, 0.5);
  std::string e = ErrorOf("[providers.p]\nkind = \"openai\"\n[providers.p.batch]\ndiscount = 2\n");
  EXPECT_NE(e.find("providers.p.batch.discount: must be 0..1 (was 2)"), std::string::npos) << e;
  e = ErrorOf(
      "[providers.p]\nkind = \"openai\"\n[providers.p.batch]\npoll_ms = 100\nmax_poll_ms = 10\n");
  EXPECT_NE(e.find("providers.p.batch.max_poll_ms: must be >= poll_ms (was 10)"), std::string::npos)
      << e;
  e = ErrorOf("[providers.p]\nkind = \"openai\"\n[providers.p.batch]\npollms = 5\n");
  EXPECT_NE(e.find("providers.p.batch.pollms"), std::string::npos) << e;
}

TEST(LoadConfigTest, UnknownProviderKindIsNamed) {
  std::string e = ErrorOf("[providers.p]\nkind = \"opneai\"\n");
  EXPECT_NE(e.find("providers.p.kind: unknown provider kind 'opneai'"), std::string::npos) << e;
  EXPECT_EQ(e.rfind("test.toml:2:", 0), 0u) << e;
}

TEST(LoadConfigTest, MissingProviderKindIsNamed) {
  EXPECT_NE(ErrorOf("[providers.p]\nmodel = \"m\"\n").find("providers.p.kind: is required"),
            std::string::npos);
}

TEST(LoadConfigTest, UnknownAliasIsNamed) {
  std::string e = ErrorOf(
      "[structure]\nmodel = \"default:smart\"\n[providers.p]\nkind = \"openai\"\n"
      "[aliases]\n\"default:fast\" = \"p/m\"\n");
  EXPECT_NE(e.find("structure.model: unknown model alias 'default:smart'"), std::string::npos) << e;
}

TEST(LoadConfigTest, AliasToUnknownProviderIsNamed) {
  std::string e = ErrorOf("[aliases]\n\"default:fast\" = \"nobody/m\"\n");
  EXPECT_NE(e.find("aliases.default:fast: unknown provider 'nobody'"), std::string::npos) << e;
}

TEST(LoadConfigTest, UnknownKeysAreErrorsNotSilentDefaults) {
  std::string e = ErrorOf("[structure]\nmaxLoop = 3\n");
  EXPECT_NE(e.find("structure.maxLoop: unknown key"), std::string::npos) << e;
  e = ErrorOf("[providers.p]\nkind = \"openai\"\n[providers.p.limits]\nrpm = 3\n");
  EXPECT_NE(e.find("providers.p.limits.rpm: unknown key"), std::string::npos) << e;
}

TEST(LoadConfigTest, WrongTypesAreNamed) {
  EXPECT_NE(ErrorOf("[structure]\nmaxLoops = \"three\"\n")
                .find("structure.maxLoops: must be a whole number"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[structure]\nrequireProviderStrictOutput = 1\n").find("must be true or false"),
            std::string::npos);
  EXPECT_NE(ErrorOf("providers = 3\n").find("providers: must be a table"), std::string::npos);
  EXPECT_NE(ErrorOf("server = 3\n").find("server: must be a table"), std::string::npos);
}

// [server] is read by `structure serve` from the same file; the engine's loader accepts it.
TEST(LoadConfigTest, ServerTableIsLeftToTheServer) {
  auto c = ParseConfig(
      "[server]\nlisten = \"127.0.0.1:0\"\nmax_loops = 3\n[structure]\nmaxLoops = 2\n", "s.toml");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->settings.max_loops, 2);
}

TEST(LoadConfigTest, OutOfRangeSettingsAreNamed) {
  EXPECT_EQ(ErrorOf("[structure]\nmaxLoops = 11\n"),
            "test.toml:2:12: structure.maxLoops: must be 1..10 (was 11)");
  EXPECT_NE(ErrorOf("[structure]\nconfidenceThreshold = 1.5\n")
                .find("structure.confidenceThreshold: must be 0..1 (was 1.5)"),
            std::string::npos);
  EXPECT_EQ(ErrorOf("[tenants.t.settings]\nmaxLoops = 0\n"),
            "test.toml:2:12: tenants.t.settings.maxLoops: must be 1..10 (was 0)");
  EXPECT_NE(ErrorOf("[stores]\nbuilder_cache_ttl_days = -1\n")
                .find("stores.builder_cache_ttl_days: must be >= 0"),
            std::string::npos);
}

// Numbers are checked before they are narrowed: nothing wraps at 32 bits, and the message
// quotes the value as the file spells it, at its line and column.
TEST(LoadConfigTest, OutOfRangeNumbersAreErrorsQuotingWhatWasWritten) {
  const std::string p = "[providers.p]\nkind = \"openai\"\n[providers.p.limits]\n";
  EXPECT_EQ(ErrorOf(p + "max_concurrency = 99999999999\n"),
            "test.toml:4:19: providers.p.limits.max_concurrency: must be at most 1000000 (was "
            "99999999999)");
  EXPECT_EQ(ErrorOf(p + "timeout_ms = 0x1_0000_0000\n"),
            "test.toml:4:14: providers.p.limits.timeout_ms: must be at most 2147483647 (was "
            "0x1_0000_0000)");
  EXPECT_EQ(
      ErrorOf(p + "requests_per_minute = inf\n"),
      "test.toml:4:23: providers.p.limits.requests_per_minute: must be a finite number (was inf)");
  EXPECT_EQ(ErrorOf("[structure]\nmaxLoops = 4294967299\n"),
            "test.toml:2:12: structure.maxLoops: must be 1..10 (was 4294967299)");
  EXPECT_EQ(ErrorOf("[structure]\ntokenBudget = -1\n"),
            "test.toml:2:15: structure.tokenBudget: must be >= 0 (was -1)");
  EXPECT_EQ(ErrorOf("[structure]\nconfidenceThreshold = nan\n"),
            "test.toml:2:23: structure.confidenceThreshold: must be a finite number (was nan)");
  EXPECT_EQ(
      ErrorOf("[stores]\nbuilder_cache_ttl_days = 4294967297\n"),
      "test.toml:2:26: stores.builder_cache_ttl_days: must be at most 36500 (was 4294967297)");
  EXPECT_EQ(ErrorOf("# \u00e9t\u00e9\n[structure]\nmaxLoops = \"\u00e9\" \n")
                .rfind("test.toml:3:12: structure.maxLoops:", 0),
            0u);
  auto ok = Parse(p + "max_concurrency = 1000000\ntimeout_ms = 2147483647\n");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->providers.at("p").limits.max_concurrency, 1000000);
}

// Errors found after reading (references between keys) point at the value too, not at 1:1 or
// at the file alone.
TEST(LoadConfigTest, ReferenceErrorsPointAtTheValue) {
  EXPECT_EQ(ErrorOf("\n[structure]\nmodel = \"nosuch\"\n")
                .rfind("test.toml:3:9: structure.model: unknown model 'nosuch' (no alias, provider "
                       "or provider's model): write PROVIDER/MODEL",
                       0),
            0u);
  EXPECT_EQ(ErrorOf("\n[aliases]\n\"x\" = \"nobody/m\"\n")
                .rfind("test.toml:3:7: aliases.x: unknown provider 'nobody'", 0),
            0u);
  EXPECT_EQ(ErrorOf("[tenants.t.settings]\nmodel = \"zz\"\n")
                .rfind("test.toml:2:9: tenants.t.settings.model:", 0),
            0u);
  EXPECT_EQ(ErrorOf("[structure]\nmodel = \"\"\n"),
            "test.toml:2:9: structure.model: must not be empty");
}

// A file that defines providers but no [aliases] keeps working.
TEST(LoadConfigTest, OneProviderWithoutAliasesIsTheDefault) {
  auto r = Parse("[providers.mine]\nkind = \"anthropic\"\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->aliases.at("default:fast").provider, "mine");
  EXPECT_EQ(r->aliases.at("default:analyze").provider, "mine");
  auto partial =
      Parse("[providers.mine]\nkind = \"openai\"\n[aliases]\n\"default:fast\" = \"mine/big\"\n");
  ASSERT_TRUE(partial.ok()) << partial.status().message();
  EXPECT_EQ(partial->aliases.at("default:fast").model, "big");
  EXPECT_EQ(partial->aliases.at("default:analyze").provider, "mine");
}

TEST(LoadConfigTest, SeveralProvidersWithoutAliasesAskForAliases) {
  std::string e = ErrorOf("[providers.a]\nkind = \"openai\"\n[providers.b]\nkind = \"gemini\"\n");
  EXPECT_NE(e.find("structure.model: is \"default:fast\", and with several providers (a, b) no "
                   "[aliases] entry"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("add [aliases] \"default:fast\" = \"PROVIDER/MODEL\""), std::string::npos) << e;
  EXPECT_EQ(e.find("unknown model alias"), std::string::npos) << e;
}

TEST(LoadConfigTest, ADirectoryIsNotAConfigFile) {
  auto r = LoadConfigFile(::testing::TempDir());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("is a directory"), std::string::npos) << r.status().message();
}

TEST(LoadConfigTest, MissingFileIsNotFound) {
  auto r = LoadConfigFile("/nonexistent/structure.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kNotFound);
}

TEST(ConfigToJsonTest, NeverPrintsTheKeyItself) {
  setenv("STRUCTURE_TEST_SECRET_KEY", "sk-very-secret-value", 1);
  auto r = Parse(
      "[providers.p]\nkind = \"openai\"\napi_key_env = \"STRUCTURE_TEST_SECRET_KEY\"\n"
      "[aliases]\n\"default:fast\" = \"p\"\n\"default:analyze\" = \"p\"\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::string out = ToJson(ConfigToJson(*r));
  EXPECT_EQ(out.find("sk-very-secret-value"), std::string::npos);
  EXPECT_NE(out.find("\"apiKeyEnv\":\"STRUCTURE_TEST_SECRET_KEY\",\"apiKey\":\"set\""),
            std::string::npos)
      << out;
  unsetenv("STRUCTURE_TEST_SECRET_KEY");
}

}  // namespace
}  // namespace structure::config
