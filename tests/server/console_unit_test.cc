// The console's pure parts: its [server] settings, the ring of recent calls and the console's
// static answers (no server process).
#include <gtest/gtest.h>

#include "server/console/console_files.h"
#include "server/console/recent_calls.h"
#include "server/server_config.h"

namespace structure::server {
namespace {

TEST(ConsoleConfigTest, DefaultsServeTheConsoleWithoutPromptsOrPrices) {
  auto c = ParseServerConfig("[server]\n", "s.toml");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_TRUE(c->console.ui);
  EXPECT_EQ(c->console.ui_base, "/");
  EXPECT_FALSE(c->console.keep_prompts);
  EXPECT_EQ(c->console.recent_calls, 1000u);
  EXPECT_TRUE(c->console.prices.empty());
}

TEST(ConsoleConfigTest, ReadsEveryConsoleKey) {
  auto c = ParseServerConfig(R"([server]
ui = false
ui_base = "structure"
keep_prompts = true
recent_calls = 20
recent_calls_bytes = 4096
[server.prices."openai/gpt-4o-mini"]
input = 0.15
output = 0.6
[server.prices."anthropic/claude"]
input = 3
cached_input = 0.3
cache_write = 3.75
output = 15
)",
                             "s.toml");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_FALSE(c->console.ui);
  EXPECT_EQ(c->console.ui_base, "/structure/");
  EXPECT_TRUE(c->console.keep_prompts);
  EXPECT_EQ(c->console.recent_calls, 20u);
  EXPECT_EQ(c->console.recent_bytes, 4096u);
  const ModelPrice& mini = c->console.prices.at("openai/gpt-4o-mini");
  EXPECT_EQ(mini.cached_input, 0.15) << "cached input costs the input price when not given";
  EXPECT_EQ(mini.output, 0.6);
  EXPECT_EQ(c->console.prices.at("anthropic/claude").cache_write, 3.75);
}

TEST(ConsoleConfigTest, BadValuesNameTheKeyAndLine) {
  struct Case {
    const char* toml;
    const char* message;
  } cases[] = {
      {"[server]\nui = 1\n", "s.toml:2:6: server.ui: must be true or false"},
      {"[server]\nui_base = \"/a b/\"\n", "s.toml:2:11: server.ui_base: must be a path prefix"},
      {"[server]\nui_base = \"/a/../b\"\n", "s.toml:2:11: server.ui_base: must be a plain path"},
      {"[server]\nrecent_calls = -1\n", "s.toml:2:16: server.recent_calls: must be 0..1000000"},
      {"[server]\n[server.prices.\"m\"]\ninput = 1\n",
       "server.prices.\"m\": the name must be \"provider/model\""},
      {"[server]\n[server.prices.\"a/m\"]\nin = 1\n",
       "s.toml:3:6: server.prices.\"a/m\".in: unknown key"},
      {"[server]\n[server.prices.\"a/m\"]\ninput = -1\n",
       "s.toml:3:9: server.prices.\"a/m\".input: must be a number of US dollars"},
      {"[server]\nprices = 3\n", "s.toml:2:10: server.prices: must be a table"},
      {"[server]\nkeep_prompt = true\n", "server.keep_prompt: unknown key"},
  };
  for (const Case& k : cases) {
    auto c = ParseServerConfig(k.toml, "s.toml");
    ASSERT_FALSE(c.ok()) << k.toml;
    EXPECT_NE(c.status().message().find(k.message), std::string::npos)
        << k.toml << " -> " << c.status().message();
  }
}

TEST(ConsoleConfigTest, NormalizesAUiBase) {
  EXPECT_EQ(*NormalizeUiBase("/"), "/");
  EXPECT_EQ(*NormalizeUiBase(""), "/");
  EXPECT_EQ(*NormalizeUiBase("a/b"), "/a/b/");
  EXPECT_FALSE(NormalizeUiBase("/a?b/").ok());
  EXPECT_FALSE(NormalizeUiBase("//a/").ok());
  EXPECT_FALSE(NormalizeUiBase("/<script>/").ok());
}

RecentCall Call(const std::string& tenant, const std::string& prompt = "") {
  RecentCall c;
  c.tenant = tenant;
  c.schema = "contact";
  c.prompt = prompt;
  c.kept_bytes = prompt.size();
  return c;
}

TEST(RecentCallsTest, KeepsTheNewestWithinItsCountAndBytes) {
  RecentCalls ring(3, 100);
  for (int i = 0; i < 5; ++i) ring.Add(Call("a"));
  auto all = ring.List([](const RecentCall&) { return true; }, 10);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].id, 5u) << "newest first";
  EXPECT_EQ(all[2].id, 3u);
  EXPECT_FALSE(ring.Get(1).has_value());
  EXPECT_TRUE(ring.Get(4).has_value());
  ring.Add(Call("a", std::string(60, 'x')));
  ring.Add(Call("b", std::string(60, 'y')));
  auto kept = ring.List([](const RecentCall&) { return true; }, 10);
  EXPECT_EQ(kept.front().tenant, "b");
  EXPECT_LE(kept.size(), 2u) << "120 bytes of prompts do not fit in 100";
  auto only_b = ring.List([](const RecentCall& c) { return c.tenant == "b"; }, 10);
  EXPECT_EQ(only_b.size(), 1u);
  RecentCalls none(0, 100);
  none.Add(Call("a"));
  EXPECT_TRUE(none.List([](const RecentCall&) { return true; }, 10).empty());
}

TEST(RecentCallsTest, KeepsNoPromptUnlessAskedAndCutsTheNeed) {
  pipeline::StructureRequest request;
  request.tenant = "acme";
  request.prompt = "secret input";
  request.mode = pipeline::SchemaMode::kNamed;
  request.schema_ref = "contact";
  pipeline::CallResult result;
  result.status = pipeline::Outcome::kNeedMoreInput;
  result.schema_origin = "registry:bundled";
  result.need = std::string(190, 'n') + "ééééééééé";  // 208 bytes, the cut falls in an é
  auto trace = std::make_shared<pipeline::CallTrace>();
  trace->rounds.push_back({});
  trace->rounds[0].issues.push_back({"/name", "type", "/name: must be a string"});
  trace->rounds[0].reason = "The previous output ...";
  trace->rounds.push_back({});
  trace->rounds[1].issues.push_back({"", "need", "x"});
  result.call_trace = trace;
  RecentCall c = MakeRecentCall(request, result, 0.5, false, pipeline::ResultToJson(result));
  EXPECT_TRUE(c.prompt.empty());
  EXPECT_TRUE(c.result.is_null());
  EXPECT_EQ(c.schema, "contact");
  ASSERT_EQ(c.issues.size(), 1u) << "only the rounds that were re-asked";
  EXPECT_EQ(c.issues[0].pointer, "/name");
  EXPECT_LE(c.need.size(), 200u + 3);
  EXPECT_EQ(c.need.substr(c.need.size() - 3), "…");
  Json summary = RecentCallSummary(c);
  EXPECT_EQ(summary.find("prompt"), nullptr);
  EXPECT_EQ(summary.find("status")->as_string(), "need-more-input");
  RecentCall kept = MakeRecentCall(request, result, 0.5, true, pipeline::ResultToJson(result));
  EXPECT_EQ(kept.prompt, "secret input");
  EXPECT_GT(kept.kept_bytes, kept.prompt.size());
}

TEST(ConsoleFilesTest, AnswersOnlyUnderUi) {
  http::HttpRequest get;
  get.method = "GET";
  EXPECT_FALSE(ConsoleFile(get, "/v1/structure").has_value());
  EXPECT_FALSE(ConsoleFile(get, "/uiz").has_value());
  auto page = ConsoleFile(get, "/ui/");
  ASSERT_TRUE(page.has_value());
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->FindHeader("content-security-policy"), nullptr);
  EXPECT_EQ(ConsoleFile(get, "/ui/../secret")->status, 404);
}

}  // namespace
}  // namespace structure::server
