// The chat-completion reply read straight from its text (ReadUsualChatReply) against the same
// reply read from a Json tree (ChatPartsFromTree): equal parts whenever the straight read takes
// a body, and never a body ParseJson refuses.
#include "providers/openai/openai_chat_reply.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "providers/openai/openai_chat.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

std::string Describe(const ChatReplyParts& p) {
  const ProviderReply& r = p.reply;
  std::string s = "model=" + r.model + "|content=" + r.content + "|refusal=" + r.refusal +
                  "|finish=" + p.finish;
  for (const ToolCall& c : r.tool_calls) s += "|call=" + c.id + "," + c.name + "," + c.arguments;
  for (const Thought& t : r.thoughts) s += "|thought=" + t.text;
  if (p.usage) {
    const ChatUsageFields& u = *p.usage;
    s += "|usage=" + std::to_string(u.prompt) + "," + std::to_string(u.completion) + "," +
         std::to_string(u.total) + "," + std::to_string(u.num_cached) + "," +
         (u.cached ? std::to_string(*u.cached) : "-") + "," + std::to_string(u.cache_write) + "," +
         (u.reasoning ? std::to_string(*u.reasoning) : "-");
  }
  return s;
}

// The tree's reading of `body`, or "" when the tree path would not give parts.
std::string TreeParts(const std::string& body) {
  auto root = ParseJson(body);
  if (!root.ok() || !root->is_object()) return "";
  auto parts = ChatPartsFromTree(*root);
  return parts ? Describe(*parts) : "";
}

// Checks `body`; true when the straight read took it.
bool Check(const std::string& body, const std::string& what) {
  auto fast = ReadUsualChatReply(body);
  if (!fast) return false;
  EXPECT_TRUE(ParseJson(body).ok()) << what << ": taken although ParseJson refuses it";
  EXPECT_EQ(Describe(*fast), TreeParts(body)) << what;
  return true;
}

std::vector<std::string> RecordedChatReplies() {
  std::vector<std::string> out;
  for (const char* dir :
       {"openai", "openai_compat", "openrouter", "recorded/openai", "recorded/openai_compat"}) {
    for (const auto& f : std::filesystem::directory_iterator(testing::DataPath(dir))) {
      std::string name = f.path().filename().string();
      if (name.rfind("request", 0) != 0 && f.path().extension() == ".json") {
        out.push_back(testing::ReadData(std::string(dir) + "/" + name));
      }
    }
  }
  return out;
}

TEST(OpenAiChatReplyTest, StraightReadEqualsTheTreeOnEveryRecordedReply) {
  int taken = 0;
  std::vector<std::string> bodies = RecordedChatReplies();
  ASSERT_GE(bodies.size(), 20u);
  for (const std::string& body : bodies) taken += Check(body, body.substr(0, 200));
  EXPECT_GE(taken, 15);  // the usual replies take the straight path
}

// Every prefix and a corruption at every byte of each recorded reply: taken only when
// ParseJson takes it too, and then read the same.
TEST(OpenAiChatReplyTest, CutOrCorruptedRepliesAreNeverReadDifferently) {
  for (const std::string& body : RecordedChatReplies()) {
    for (size_t n = 0; n < body.size(); ++n) {
      Check(body.substr(0, n), "prefix " + std::to_string(n));
      for (char c : {'"', '\\', '}', ',', '\x01', '\xC3'}) {
        std::string bad = body;
        bad[n] = c;
        Check(bad, "byte " + std::to_string(n) + " set to " + std::to_string(c));
      }
    }
  }
}

TEST(OpenAiChatReplyTest, UnusualShapesGoToTheTree) {
  const char* kUnusual[] = {
      // a repeated member (ParseJson keeps the last)
      R"({"choices":[{"message":{"content":"a","content":"b"}}]})",
      R"({"model":"a","model":"b","choices":[{"message":{}}]})",
      // content as parts (Mistral), arguments as an object, a fractional count
      R"({"choices":[{"message":{"content":[{"type":"text","text":"x"}]}}]})",
      R"({"choices":[{"message":{"tool_calls":[{"function":{"name":"f","arguments":{}}}]}}]})",
      R"({"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":1.5}})",
      // an error member, no choices, a first choice that is not an object
      R"({"error":{"message":"m"},"choices":[{"message":{"content":"x"}}]})",
      R"({"choices":[]})",
      R"({"choices":[1]})",
      R"([])",
  };
  for (const char* body : kUnusual) EXPECT_FALSE(ReadUsualChatReply(body)) << body;
}

TEST(OpenAiChatReplyTest, ReadsTheUsualReplyStraight) {
  std::string body = R"({"id":"x","model":"m","choices":[{"index":0,"message":{"role":"assistant",)"
                     R"("content":"{\"a\":\"\u00e9\ud83d\ude00\"}","reasoning":"hmm"},)"
                     R"("finish_reason":"length"},{"index":1}],"usage":{"prompt_tokens":5,)"
                     R"("completion_tokens":7,"total_tokens":12,"completion_tokens_details":)"
                     R"({"reasoning_tokens":3},"prompt_tokens_details":{"cached_tokens":2}}})";
  auto parts = ReadUsualChatReply(body);
  ASSERT_TRUE(parts);
  EXPECT_EQ(parts->reply.content, "{\"a\":\"\xC3\xA9\xF0\x9F\x98\x80\"}");
  EXPECT_EQ(Describe(*parts), TreeParts(body));
  auto reply = openai_chat::ParseReply(testing::Response(200, body));
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply->finish, FinishKind::kLength);
  EXPECT_EQ(reply->usage.cached_input_tokens, 2);
  EXPECT_EQ(reply->usage.reasoning_tokens, 3);
  ASSERT_EQ(reply->thoughts.size(), 1u);
  EXPECT_EQ(reply->thoughts[0].text, "hmm");
}

}  // namespace
}  // namespace structure::providers
