#include "config/settings.h"

#include <gtest/gtest.h>

#include "config/load_config.h"

namespace structure::config {
namespace {

EngineConfig Cascade() {
  auto r = ParseConfig(
      "[structure]\nmaxLoops = 4\ntokenBudget = 1000\n"
      "[tenants.acme.settings]\nmaxLoops = 5\nconfidenceThreshold = 0.7\n"
      "[tenants.acme.projects.billing.settings]\nconfidenceThreshold = 0.9\n"
      "[tenants.other.settings]\nrequireProviderStrictOutput = false\n",
      "cascade.toml");
  EXPECT_TRUE(r.ok()) << r.status().message();
  return *r;
}

TEST(SettingsTest, FileOverridesBuiltInDefaults) {
  auto s = ResolveSettings(Cascade(), "", "", {});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->max_loops, 4);
  EXPECT_EQ(s->token_budget, 1000);
  EXPECT_DOUBLE_EQ(s->confidence_threshold, 0.8);  // built-in default survives
}

TEST(SettingsTest, TenantOverridesFile) {
  auto s = ResolveSettings(Cascade(), "acme", "", {});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->max_loops, 5);
  EXPECT_DOUBLE_EQ(s->confidence_threshold, 0.7);
  EXPECT_EQ(s->token_budget, 1000);
}

TEST(SettingsTest, ProjectOverridesTenant) {
  auto s = ResolveSettings(Cascade(), "acme", "billing", {});
  ASSERT_TRUE(s.ok());
  EXPECT_DOUBLE_EQ(s->confidence_threshold, 0.9);
  EXPECT_EQ(s->max_loops, 5);
}

TEST(SettingsTest, RequestOverridesProject) {
  SettingsOverride req;
  req.max_loops = 2;
  req.confidence_threshold = 0.5;
  auto s = ResolveSettings(Cascade(), "acme", "billing", req);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->max_loops, 2);
  EXPECT_DOUBLE_EQ(s->confidence_threshold, 0.5);
}

TEST(SettingsTest, ProjectOfAnotherTenantDoesNotApply) {
  auto s = ResolveSettings(Cascade(), "other", "billing", {});
  ASSERT_TRUE(s.ok());
  EXPECT_DOUBLE_EQ(s->confidence_threshold, 0.8);
  EXPECT_FALSE(s->require_provider_strict_output);
}

TEST(SettingsTest, BadRequestValueIsNamed) {
  SettingsOverride req;
  req.max_loops = 12;
  auto s = ResolveSettings(Cascade(), "", "", req);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().message(), "request: maxLoops must be 1..10 (was 12)");
}

TEST(SettingsTest, EvidenceModeCascadesTenantProjectRequest) {
  auto c = ParseConfig(
      "[tenants.acme.settings]\nevidence = \"report\"\n"
      "[tenants.acme.projects.audit.settings]\nevidence = \"require\"\n",
      "evidence.toml");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(ResolveSettings(*c, "", "", {})->evidence, EvidenceMode::kOff);
  EXPECT_EQ(ResolveSettings(*c, "acme", "", {})->evidence, EvidenceMode::kReport);
  EXPECT_EQ(ResolveSettings(*c, "acme", "audit", {})->evidence, EvidenceMode::kRequire);
  SettingsOverride req;
  req.evidence = EvidenceMode::kOff;
  EXPECT_EQ(ResolveSettings(*c, "acme", "audit", req)->evidence, EvidenceMode::kOff);
  auto bad = ParseConfig("[structure]\nevidence = \"sometimes\"\n", "bad.toml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("structure.evidence: must be \"off\", \"report\" or "
                                        "\"require\" (was \"sometimes\")"),
            std::string::npos)
      << bad.status().message();
}

TEST(SettingsTest, MaxInputTokensPerCallCascadesAndIsChecked) {
  auto c = ParseConfig(
      "[structure]\nmaxInputTokensPerCall = 4000\n"
      "[tenants.acme.settings]\nmaxInputTokensPerCall = 0\n",
      "long.toml");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(ResolveSettings(*c, "", "", {})->max_input_tokens_per_call, 4000);
  EXPECT_EQ(ResolveSettings(*c, "acme", "", {})->max_input_tokens_per_call, 0);
  SettingsOverride req;
  req.max_input_tokens_per_call = 1500;
  EXPECT_EQ(ResolveSettings(*c, "acme", "", req)->max_input_tokens_per_call, 1500);
  req.max_input_tokens_per_call = -1;
  auto bad = ResolveSettings(*c, "", "", req);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "request: maxInputTokensPerCall must be >= 0 (was -1)");
  EXPECT_FALSE(ParseConfig("[structure]\nmaxInputTokensPerCall = -3\n", "neg.toml").ok());
}

TEST(ResolveModelTest, ResolvesAliasesProvidersAndProviderModel) {
  EngineConfig c = DefaultConfig();
  auto a = ResolveModel(c, "default:fast");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->provider, "simulator");
  auto b = ResolveModel(c, "simulator/sim-2");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->model, "sim-2");
  auto bad = ResolveModel(c, "default:nope");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(
      bad.status().message().rfind("unknown model alias 'default:nope': write PROVIDER/MODEL", 0),
      0u)
      << bad.status().message();
  EXPECT_EQ(ResolveModel(c, "nobody/m").status().code(), Code::kNotFound);
}

}  // namespace
}  // namespace structure::config
