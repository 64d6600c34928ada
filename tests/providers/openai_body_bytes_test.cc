// The exact bytes of OpenAI-style request bodies (member order, number forms, escapes) for a
// matrix of calls and dialects, against tests/data/providers/openai/exact_bodies.txt: the
// golden tests compare bodies as JSON values, this one guards the text itself (the body is
// written straight, without a tree). STRUCTURE_UPDATE_GOLDEN=1 rewrites the file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "providers/wire.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

using Case = std::pair<std::string, ProviderCall>;

std::vector<Case> Calls() {
  std::vector<Case> out;
  out.emplace_back("basic", testing::BasicCall());
  out.emplace_back("final_tool", testing::ToolCallHistory());
  out.emplace_back("reask_empty", testing::ReaskAfterEmptyReply());
  out.emplace_back("plain", testing::PlainJsonCall());
  ProviderCall c = testing::BasicCall();
  c.temperature = 0.7;
  c.top_p = 0.25;
  c.seed = -42;
  c.user = "user \"7\"\n\x01\u00e9\U0001F600";
  c.cache_key = "schema-abc";
  c.strict = false;
  c.system = "Tab\there, quote \" and \\ slash </script>";
  out.emplace_back("sampling", c);
  c = testing::BasicCall();
  c.system.clear();
  c.need = NeedChannel::kTool;
  c.need_schema = testing::ToolCallHistory().need_schema;
  out.emplace_back("need_tool", c);
  c = testing::ToolCallHistory();
  c.turns.back().is_error = false;
  c.turns.back().text = "ok";
  c.turns[1].text = "thinking aloud";
  out.emplace_back("tool_result", c);
  c = testing::BasicCall();
  c.model = "o3";
  c.thinking.effort = "high";
  out.emplace_back("effort", c);
  c = testing::BasicCall();
  c.thinking.budget = 2048;
  out.emplace_back("budget", c);
  c = testing::BasicCall();
  c.thinking.effort = "none";
  out.emplace_back("off", c);
  c = testing::BasicCall();
  c.model = "anthropic/claude-sonnet-4";
  c.cache_min_tokens = 1;
  out.emplace_back("cache_mark", c);
  return out;
}

std::string Bodies() {
  std::string text;
  for (ProviderKind kind :
       {ProviderKind::kOpenAi, ProviderKind::kOpenRouter, ProviderKind::kOpenAiCompat,
        ProviderKind::kLlamaCpp, ProviderKind::kLlamafile}) {
    for (const auto& [name, call] : Calls()) {
      auto req = BuildRequest(call, testing::TestEndpoint(kind, "sk-test"));
      text += std::string(ProviderKindName(kind)) + " " + name + " " +
              (req.ok() ? req->body : req.status().ToString()) + "\n";
    }
  }
  return text;
}

TEST(OpenAiBodyBytesTest, BodiesAreTheRecordedBytes) {
  const std::string rel = "openai/exact_bodies.txt";
  std::string got = Bodies();
  if (const char* u = std::getenv("STRUCTURE_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    std::ofstream(testing::DataPath(rel)) << got;
    return;
  }
  std::istringstream want_lines(testing::ReadData(rel)), got_lines(got);
  std::string want_line, got_line;
  int n = 0;
  while (std::getline(want_lines, want_line)) {
    ASSERT_TRUE(std::getline(got_lines, got_line)) << "fewer bodies than recorded";
    EXPECT_EQ(got_line, want_line);
    ++n;
  }
  EXPECT_FALSE(std::getline(got_lines, got_line)) << "more bodies than recorded";
  EXPECT_EQ(n, 55);
}

}  // namespace
}  // namespace structure::providers
