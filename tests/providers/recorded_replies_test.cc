// Recorded real provider replies (tests/data/providers/recorded, sources and licenses in its
// SOURCES.md) replayed through the engine's own parsers: each file must come out as the facts
// manifest.json records for it (finish kind, text, refusal, tool calls, thoughts, usage, model,
// or the error code of an error body), and the batch result files item by item.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "providers/anthropic/anthropic_batch.h"
#include "providers/gemini/gemini_batch.h"
#include "providers/openai/openai_batch.h"
#include "providers/wire.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

constexpr const char* kDir = "recorded/";

const Json& Manifest() {
  static const Json manifest = [] {
    auto parsed = ParseJson(testing::ReadData(std::string(kDir) + "manifest.json"));
    EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
    return parsed.ok() ? *parsed : Json::MakeObject();
  }();
  return manifest;
}

const Json::Array& Entries(std::string_view list) {
  static const Json::Array kNone;
  const Json* entries = Manifest().find(list);
  return entries && entries->is_array() ? entries->as_array() : kNone;
}

std::string Text(const Json& object, std::string_view key) {
  const Json* v = object.find(key);
  return v && v->is_string() ? v->as_string() : std::string();
}

int64_t Int(const Json& object, std::string_view key) {
  const Json* v = object.find(key);
  return v && v->is_int() ? v->as_int() : -1;
}

void ExpectToolCalls(const ProviderReply& reply, const Json& want) {
  const Json* calls = want.find("tool_calls");
  ASSERT_TRUE(calls && calls->is_array());
  ASSERT_EQ(reply.tool_calls.size(), calls->size());
  for (size_t i = 0; i < reply.tool_calls.size(); ++i) {
    const ToolCall& got = reply.tool_calls[i];
    const Json& call = calls->as_array()[i];
    EXPECT_EQ(got.name, Text(call, "name"));
    auto args = ParseJson(got.arguments);
    ASSERT_TRUE(args.ok()) << got.name << ": arguments are not JSON: " << got.arguments;
    EXPECT_EQ(*args, *call.find("arguments")) << got.name << ": " << got.arguments;
  }
}

void ExpectUsage(const Usage& got, const Json& want) {
  EXPECT_EQ(got.input_tokens, Int(want, "input"));
  EXPECT_EQ(got.output_tokens, Int(want, "output"));
  EXPECT_EQ(got.cached_input_tokens, Int(want, "cached"));
  EXPECT_EQ(got.cache_write_tokens, Int(want, "cache_write"));
  EXPECT_EQ(got.reasoning_tokens, Int(want, "reasoning"));
  EXPECT_EQ(got.reasoning_unreported, *want.find("reasoning_unreported") == Json(true));
}

// The recorded facts of one reply. "finish" and "model" are left out where the recording does
// not say them (a trimmed message, a streamed chunk).
void ExpectFacts(const ProviderReply& reply, const Json& want) {
  if (const Json* finish = want.find("finish")) {
    EXPECT_EQ(FinishKindName(reply.finish), finish->as_string());
  }
  if (const Json* content = want.find("content")) {
    EXPECT_EQ(reply.content, content->as_string());
  }
  if (const Json* prefix = want.find("content_prefix")) {
    EXPECT_EQ(reply.content.rfind(prefix->as_string(), 0), 0u) << reply.content.substr(0, 200);
  }
  EXPECT_EQ(reply.refusal, Text(want, "refusal"));
  ExpectToolCalls(reply, want);
  EXPECT_EQ(static_cast<int64_t>(reply.thoughts.size()), Int(want, "thoughts"));
  ExpectUsage(reply.usage, *want.find("usage"));
  if (const Json* model = want.find("model")) {
    EXPECT_EQ(reply.model, model->as_string());
  }
}

TEST(RecordedRepliesTest, EveryReplyParsesToItsRecordedFacts) {
  ASSERT_GE(Entries("replies").size(), 30u);
  for (const Json& entry : Entries("replies")) {
    std::string file = Text(entry, "file");
    SCOPED_TRACE(file);
    auto kind = ParseProviderKind(Text(entry, "kind"));
    ASSERT_TRUE(kind.ok()) << kind.status().ToString();
    int64_t status = entry.find("status") ? Int(entry, "status") : 200;
    auto reply = ParseReply(
        *kind, testing::Response(static_cast<int>(status), testing::ReadData(kDir + file)));
    if (entry.find("code")) {
      ASSERT_FALSE(reply.ok()) << "an error body parsed as a reply";
      EXPECT_EQ(CodeName(reply.status().code()), Text(entry, "code")) << reply.status().ToString();
      continue;
    }
    ASSERT_TRUE(reply.ok()) << reply.status().ToString();
    ExpectFacts(*reply, entry);
  }
}

Status ParseBatchFile(const Json& entry, ItemResults& out) {
  std::string kind = Text(entry, "kind");
  std::string text = testing::ReadData(kDir + Text(entry, "file"));
  if (kind == "openai_batch") return openai_batch::ParseResults(text, out);
  if (kind == "anthropic_batch") return anthropic_batch::ParseResults(text, out);
  std::vector<std::string> ids;
  for (const Json& id : entry.find("custom_ids")->as_array()) ids.push_back(id.as_string());
  return gemini_batch::ParseResults(text, ids, out);
}

TEST(RecordedRepliesTest, EveryBatchResultFileParsesItemByItem) {
  ASSERT_EQ(Entries("batches").size(), 3u);
  for (const Json& entry : Entries("batches")) {
    SCOPED_TRACE(Text(entry, "file"));
    ItemResults results;
    Status parsed = ParseBatchFile(entry, results);
    ASSERT_TRUE(parsed.ok()) << parsed.ToString();
    const Json::Object& items = entry.find("items")->as_object();
    EXPECT_EQ(results.size(), items.size());
    for (const auto& [id, want] : items) {
      SCOPED_TRACE(id);
      auto it = results.find(id);
      ASSERT_NE(it, results.end());
      ASSERT_TRUE(it->second.reply.ok()) << it->second.reply.status().ToString();
      ExpectFacts(*it->second.reply, want);
    }
  }
}

// The corpus stays whole: every data file is replayed and has its source noted.
TEST(RecordedRepliesTest, EveryRecordedFileIsReplayedAndHasItsSource) {
  std::set<std::string> listed;
  for (std::string_view list : {"replies", "batches"}) {
    for (const Json& entry : Entries(list)) listed.insert(Text(entry, "file"));
  }
  std::string sources = testing::ReadData(std::string(kDir) + "SOURCES.md");
  namespace fs = std::filesystem;
  fs::path root = testing::DataPath(kDir);
  int files = 0;
  for (const auto& f : fs::recursive_directory_iterator(root)) {
    if (!f.is_regular_file()) continue;
    std::string rel = fs::relative(f.path(), root).generic_string();
    if (rel.find('/') == std::string::npos) continue;  // manifest.json, SOURCES.md
    ++files;
    EXPECT_TRUE(listed.count(rel)) << rel << " is not in manifest.json";
    EXPECT_NE(sources.find("`" + rel + "`"), std::string::npos) << rel << " has no SOURCES.md row";
  }
  EXPECT_EQ(files, static_cast<int>(listed.size()));
}

}  // namespace
}  // namespace structure::providers
