// The simulator's OpenAI Responses API (POST /v1/responses, sim/openai/sim_responses.h) over real
// HTTP: the response object, reasoning items that must come back whole, function tools in the
// flat shape, batches on /v1/responses, and the rule that sends the newer reasoning families
// there: function tools with reasoning on /v1/chat/completions get OpenAI's 400.
#include <gtest/gtest.h>

#include "tests/sim/sim_test_client.h"

namespace structure::sim {
namespace {

using testing::Post;

std::string Message(const testing::HttpReply& r) {
  const Json* err = r.json.find("error");
  const Json* m = err && err->is_object() ? err->find("message") : nullptr;
  return m && m->is_string() ? m->as_string() : "";
}

testing::HttpReply Responses(uint16_t port, const Json& body) {
  return Post(port, "/v1/responses", testing::OpenAiHeaders(), ToJson(body));
}

Json Parse(const char* text) {
  auto j = ParseJson(text);
  EXPECT_TRUE(j.ok()) << text;
  return j.ok() ? *j : Json();
}

// gpt-5.4 asked to submit a person through a forced function tool, reasoning high.
Json ForcedTool() {
  return Parse(R"({"model":"gpt-5.4","instructions":"Extract the person.",
    "input":[{"role":"user","content":"Ada Lovelace, 36."}],
    "tools":[{"type":"function","name":"submit","description":"Submit.","strict":true,
      "parameters":{"type":"object","properties":{"name":{"type":"string"},
        "age":{"type":"integer"}},"required":["name","age"],"additionalProperties":false}}],
    "tool_choice":{"type":"function","name":"submit"},
    "reasoning":{"effort":"high"},"store":false,"include":["reasoning.encrypted_content"],
    "max_output_tokens":8192})");
}

const Json& Output(const testing::HttpReply& r, size_t i) {
  return r.json.find("output")->as_array().at(i);
}

TEST(SimResponsesTest, ChatCompletionsRefusesFunctionToolsWithReasoningForTheNewerFamilies) {
  auto sim = testing::StartSim();
  Json req = testing::TestJson("openai_tools.json");
  req.set("model", "gpt-5.4");
  req.set("reasoning_effort", "high");
  auto r = Post(sim->port(), "/v1/chat/completions", testing::OpenAiHeaders(), ToJson(req));
  ASSERT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(Message(r),
            "Function tools with reasoning_effort are not supported for gpt-5.4 in "
            "/v1/chat/completions. Please use /v1/responses instead.");
  EXPECT_EQ(*r.json.find("error")->find("type"), Json("invalid_request_error"));
  // Without reasoning, and on the families before gpt-5.2, the same tools are answered.
  req.set("reasoning_effort", "none");
  EXPECT_EQ(Post(sim->port(), "/v1/chat/completions", testing::OpenAiHeaders(), ToJson(req)).status,
            200);
  req.set("model", "gpt-5.1");
  req.set("reasoning_effort", "high");
  EXPECT_EQ(Post(sim->port(), "/v1/chat/completions", testing::OpenAiHeaders(), ToJson(req)).status,
            200);
  // The same call on /v1/responses is answered.
  EXPECT_EQ(Responses(sim->port(), ForcedTool()).status, 200);
}

TEST(SimResponsesTest, AForcedToolIsAFunctionCallAfterAReasoningItem) {
  auto sim = testing::StartSim();
  auto r = Responses(sim->port(), ForcedTool());
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(*r.json.find("object"), Json("response"));
  EXPECT_EQ(*r.json.find("status"), Json("completed"));
  ASSERT_EQ(r.json.find("output")->size(), 2u) << r.body;
  const Json& reasoning = Output(r, 0);
  EXPECT_EQ(*reasoning.find("type"), Json("reasoning"));
  EXPECT_EQ(reasoning.find("id")->as_string().rfind("rs_", 0), 0u);
  EXPECT_FALSE(reasoning.find("encrypted_content")->as_string().empty());
  const Json& call = Output(r, 1);
  EXPECT_EQ(*call.find("type"), Json("function_call"));
  EXPECT_EQ(*call.find("name"), Json("submit"));
  EXPECT_EQ(call.find("call_id")->as_string().rfind("call_", 0), 0u);
  auto args = ParseJson(call.find("arguments")->as_string());
  ASSERT_TRUE(args.ok());
  EXPECT_TRUE(args->find("name") && args->find("age"));
  const Json& usage = *r.json.find("usage");
  EXPECT_EQ(usage.find("output_tokens_details")->find("reasoning_tokens")->as_int(), 4096);
  EXPECT_NE(usage.find("input_tokens_details")->find("cached_tokens"), nullptr);
}

TEST(SimResponsesTest, TextFormatAnswersWithOutputText) {
  auto sim = testing::StartSim();
  Json req = Parse(R"({"model":"gpt-5.4","input":"Ada Lovelace, 36.",
    "text":{"format":{"type":"json_schema","name":"person","strict":true,
      "schema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],
        "additionalProperties":false}}}})");
  auto r = Responses(sim->port(), req);
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_EQ(r.json.find("output")->size(), 1u) << "gpt-5.4 does not reason unless asked";
  const Json& msg = Output(r, 0);
  EXPECT_EQ(*msg.find("type"), Json("message"));
  const Json& part = msg.find("content")->as_array().at(0);
  EXPECT_EQ(*part.find("type"), Json("output_text"));
  auto answer = ParseJson(part.find("text")->as_string());
  ASSERT_TRUE(answer.ok()) << part.find("text")->as_string();
  EXPECT_NE(answer->find("name"), nullptr);
  // Reasoning that uses the whole cap: status incomplete, reason max_output_tokens, and no
  // message at all.
  req.set("max_output_tokens", 16);
  req.set("reasoning", Parse(R"({"effort":"high"})"));
  auto cut = Responses(sim->port(), req);
  ASSERT_EQ(cut.status, 200) << cut.body;
  EXPECT_EQ(*cut.json.find("status"), Json("incomplete"));
  EXPECT_EQ(*cut.json.find("incomplete_details"), Parse(R"({"reason":"max_output_tokens"})"));
  ASSERT_EQ(cut.json.find("output")->size(), 1u) << cut.body;
  EXPECT_EQ(*Output(cut, 0).find("type"), Json("reasoning"));
}

TEST(SimResponsesTest, FieldsOfTheOtherApiAreRefused) {
  auto sim = testing::StartSim();
  Json req = ForcedTool();
  req.set("seed", 7);
  auto seed = Responses(sim->port(), req);
  EXPECT_EQ(seed.status, 400);
  EXPECT_EQ(Message(seed), "Unknown parameter: 'seed'.");
  Json nested = ForcedTool();
  nested["tools"].as_array()[0].set("function", Parse(R"({"name":"submit"})"));
  auto n = Responses(sim->port(), nested);
  EXPECT_EQ(n.status, 400);
  EXPECT_EQ(Message(n), "Unknown parameter: 'tools[0].function'.");
  Json low = ForcedTool();
  low.set("max_output_tokens", 5);
  auto l = Responses(sim->port(), low);
  EXPECT_EQ(l.status, 400);
  EXPECT_EQ(Message(l),
            "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, "
            "but got 5 instead.");
}

// A re-ask sends the reply's items back: as they came they are taken; a reasoning item without
// its encrypted content (nothing is stored), with content that is not its own, or apart from the
// item it led to is refused as OpenAI refuses it.
TEST(SimResponsesTest, ReasoningItemsMustComeBackWhole) {
  auto sim = testing::StartSim();
  Json req = ForcedTool();
  auto first = Responses(sim->port(), req);
  ASSERT_EQ(first.status, 200) << first.body;
  Json reasoning = Output(first, 0);
  Json call = Output(first, 1);
  std::string call_id = call.find("call_id")->as_string();
  Json tool_output = Json::MakeObject();
  tool_output.set("type", "function_call_output");
  tool_output.set("call_id", call_id);
  tool_output.set("output", "Error: /age: must be >= 0");

  auto again = [&](std::vector<Json> items) {
    Json r = ForcedTool();
    for (Json& item : items) r["input"].push_back(std::move(item));
    return Responses(sim->port(), r);
  };
  auto whole = again({reasoning, call, tool_output});
  EXPECT_EQ(whole.status, 200) << whole.body;

  Json no_content = reasoning;
  no_content.erase("encrypted_content");
  auto missing = again({no_content, call, tool_output});
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(Message(missing), "Item with id '" + reasoning.find("id")->as_string() +
                                  "' not found. Items are not persisted when `store` is set to "
                                  "false. Try again with `store` set to true, or remove this "
                                  "item from your input.");

  Json changed = reasoning;
  changed.set("encrypted_content", "gAAAAB-something-else");
  auto unverified = again({changed, call, tool_output});
  EXPECT_EQ(unverified.status, 400);
  EXPECT_EQ(Message(unverified), "The encrypted content for item " +
                                     reasoning.find("id")->as_string() + " could not be verified.");

  auto without_reasoning = again({call, tool_output});
  EXPECT_EQ(without_reasoning.status, 400);
  EXPECT_EQ(Message(without_reasoning),
            "Item '" + call.find("id")->as_string() +
                "' of type 'function_call' was provided without its required 'reasoning' "
                "item: '" +
                reasoning.find("id")->as_string() + "'.");

  auto alone = again({reasoning, tool_output});
  EXPECT_EQ(alone.status, 400);
  EXPECT_EQ(Message(alone), "Item '" + reasoning.find("id")->as_string() +
                                "' of type 'reasoning' was provided without its required "
                                "following item.");

  // A function_call without its item id stands on its own.
  Json bare = call;
  bare.erase("id");
  EXPECT_EQ(again({bare, tool_output}).status, 200);
}

}  // namespace
}  // namespace structure::sim
