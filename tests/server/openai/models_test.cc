#include "server/openai/models.h"

#include <gtest/gtest.h>

#include "config/load_config.h"

namespace structure::server::openai {
namespace {

config::EngineConfig TwoProviders() {
  config::EngineConfig c = config::DefaultConfig();  // simulator/sim-1, default:fast/analyze
  config::ProviderConfig a;
  a.name = "a";
  a.kind = "openai";
  a.model = "gpt-4o-mini";
  a.models["o3"] = {};
  c.providers["a"] = a;
  config::ProviderConfig b;
  b.name = "b";
  b.kind = "openai";
  b.model = "o3";
  c.providers["b"] = b;
  return c;
}

std::string Routed(const config::EngineConfig& c, const std::string& model) {
  auto r = RouteModel(c, model);
  if (auto* e = std::get_if<ApiError>(&r)) return "404:" + e->message;
  return std::get<std::string>(r);
}

TEST(ModelsTest, AliasesProvidersAndProviderModelsRouteAsTheyAre) {
  auto c = TwoProviders();
  EXPECT_EQ(Routed(c, "default:fast"), "default:fast");
  EXPECT_EQ(Routed(c, "simulator"), "simulator");
  EXPECT_EQ(Routed(c, "a/gpt-4o"), "a/gpt-4o");
}

TEST(ModelsTest, BareModelOfOneProviderRoutesToIt) {
  auto c = TwoProviders();
  EXPECT_EQ(Routed(c, "gpt-4o-mini"), "a/gpt-4o-mini");
  EXPECT_EQ(Routed(c, "sim-1"), "simulator/sim-1");
}

TEST(ModelsTest, UnknownOrAmbiguousIsModelNotFound) {
  auto c = TwoProviders();
  auto r = RouteModel(c, "gpt-5");
  ASSERT_TRUE(std::holds_alternative<ApiError>(r));
  const ApiError& e = std::get<ApiError>(r);
  EXPECT_EQ(e.status, 404);
  EXPECT_EQ(e.code, "model_not_found");
  EXPECT_EQ(e.param, "model");
  EXPECT_EQ(e.type, "invalid_request_error");
  EXPECT_NE(Routed(c, "o3").find("a/o3, b/o3"), std::string::npos) << Routed(c, "o3");
  EXPECT_NE(Routed(c, "nobody/x").find("unknown provider 'nobody' in model 'nobody/x'"),
            std::string::npos);
  EXPECT_EQ(Routed(c, "a/").rfind("404:", 0), 0u);
}

TEST(ModelsTest, ListHasAliasesAndProviderModelsInTheOpenAiShape) {
  Json j = *ParseJson(ModelsJson(ListModels(TwoProviders())));
  EXPECT_EQ(*j.find("object"), Json("list"));
  std::vector<std::string> ids;
  for (const Json& m : j.find("data")->as_array()) {
    EXPECT_EQ(*m.find("object"), Json("model"));
    ids.push_back(m.find("id")->as_string());
  }
  // Bare names where one provider lists them (o3 is listed by two: not bare).
  EXPECT_EQ(ids,
            (std::vector<std::string>{"default:analyze", "default:fast", "a/gpt-4o-mini", "a/o3",
                                      "b/o3", "simulator/sim-1", "gpt-4o-mini", "sim-1"}));
}

std::string Retrieved(const config::EngineConfig& c, const std::string& id) {
  auto r = RetrieveModel(c, id);
  if (auto* e = std::get_if<ApiError>(&r)) return "404:" + e->message;
  return ModelJson(std::get<ModelEntry>(r));
}

TEST(ModelsTest, RetrieveResolvesAnIdAsARequestsModel) {
  auto c = TwoProviders();
  EXPECT_EQ(Retrieved(c, "sim-1"),
            R"({"id":"sim-1","object":"model","created":0,"owned_by":"simulator"})");
  EXPECT_EQ(Retrieved(c, "a/gpt-4o"),
            R"({"id":"a/gpt-4o","object":"model","created":0,"owned_by":"a"})");
  EXPECT_EQ(Retrieved(c, "default:fast"),
            R"({"id":"default:fast","object":"model","created":0,"owned_by":"simulator"})");
  EXPECT_EQ(Retrieved(c, "b"), R"({"id":"b","object":"model","created":0,"owned_by":"b"})");
  // Every id the listing shows is retrievable.
  for (const ModelEntry& m : ListModels(c)) {
    EXPECT_EQ(Retrieved(c, m.id).rfind("{", 0), 0u) << m.id;
  }
  EXPECT_EQ(Retrieved(c, "o3").rfind("404:", 0), 0u);
  EXPECT_EQ(Retrieved(c, "gpt-9").rfind("404:", 0), 0u);
}

TEST(ModelsTest, SchemaModelsAndTheirVersions) {
  EXPECT_TRUE(IsSchemaModel("schema:invoice"));
  EXPECT_FALSE(IsSchemaModel("default:fast"));
  auto m = std::get<SchemaModel>(ReadSchemaModel("schema:invoice@1.2"));
  EXPECT_EQ(m.name, "invoice");
  EXPECT_EQ(m.version, "1.2");
  EXPECT_FALSE(CheckSchemaVersion("schema:invoice@1.2", m, "1.2"));
  EXPECT_FALSE(CheckSchemaVersion("schema:invoice@1.2", m, "1.5"));  // a compatible minor step
  auto older = CheckSchemaVersion("schema:invoice@1.2", m, "1.1");
  ASSERT_TRUE(older.has_value());
  EXPECT_EQ(older->status, 404);
  EXPECT_NE(older->message.find("at version 1.1"), std::string::npos) << older->message;
  EXPECT_TRUE(CheckSchemaVersion("schema:invoice@1.2", m, "2.0").has_value());
  EXPECT_FALSE(CheckSchemaVersion("schema:invoice", SchemaModel{"invoice", ""}, "7.0"));
  auto c = TwoProviders();
  EXPECT_EQ(SchemaModelRoute(c, "schema:invoice"), "");  // the configured default
  c.aliases["schema:invoice"] = c.aliases.at("default:fast");
  EXPECT_EQ(SchemaModelRoute(c, "schema:invoice"), "schema:invoice");
}

}  // namespace
}  // namespace structure::server::openai
