// The simulator refuses, per model family (the engine's model table), what each provider refuses:
// a parameter the requested model does not take is a 400 in the provider's error body, so the
// engine's own mistakes of that kind show up end to end.
#include <gtest/gtest.h>

#include "tests/sim/sim_test_client.h"

namespace structure::sim {
namespace {

using testing::Post;
using testing::TestJson;

const Json& Error(const testing::HttpReply& r) {
  static const Json kNone;
  const Json* err = r.json.find("error");
  return err ? *err : kNone;
}

std::string Message(const testing::HttpReply& r) {
  const Json* m = Error(r).is_object() ? Error(r).find("message") : nullptr;
  return m && m->is_string() ? m->as_string() : "";
}

testing::HttpReply OpenAi(uint16_t port, const Json& body) {
  return Post(port, "/v1/chat/completions", testing::OpenAiHeaders(), ToJson(body));
}

TEST(SimModelChecksTest, OpenAiOSeriesRefuseParallelToolCallsInOpenAisBody) {
  auto sim = testing::StartSim();
  Json req = TestJson("openai_tools.json");
  req.set("parallel_tool_calls", false);
  for (const char* model : {"o1", "o3", "o3-mini", "o4-mini"}) {
    req.set("model", model);
    auto r = OpenAi(sim->port(), req);
    ASSERT_EQ(r.status, 400) << model << " " << r.body;
    EXPECT_EQ(ToJson(Error(r)),
              R"({"message":"Unsupported parameter: 'parallel_tool_calls' is not supported with )"
              R"(this model.","type":"invalid_request_error","param":"parallel_tool_calls",)"
              R"("code":"unsupported_parameter"})");
  }
  req.set("model", "gpt-4.1");
  EXPECT_EQ(OpenAi(sim->port(), req).status, 200);
  req.erase("parallel_tool_calls");
  req.set("model", "o3");
  EXPECT_EQ(OpenAi(sim->port(), req).status, 200);
}

TEST(SimModelChecksTest, OpenAiRefusesLevelsAndSamplingTheModelDoesNotTake) {
  auto sim = testing::StartSim();
  Json req = TestJson("openai_json_schema.json");
  req.set("reasoning_effort", "low");
  auto gpt4o = OpenAi(sim->port(), req);  // gpt-4o
  EXPECT_EQ(gpt4o.status, 400);
  EXPECT_EQ(*Error(gpt4o).find("param"), Json("reasoning_effort"));
  EXPECT_EQ(*Error(gpt4o).find("code"), Json("unsupported_parameter"));
  req.set("model", "gpt-5.1");
  req.set("reasoning_effort", "minimal");
  auto level = OpenAi(sim->port(), req);
  EXPECT_EQ(level.status, 400);
  EXPECT_EQ(Message(level),
            "Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. Supported "
            "values are: 'none', 'low', 'medium', and 'high'.");
  EXPECT_EQ(*Error(level).find("code"), Json("unsupported_value"));
  req.set("reasoning_effort", "none");
  req.set("temperature", 0.2);
  auto temperature = OpenAi(sim->port(), req);
  EXPECT_EQ(temperature.status, 400);
  EXPECT_EQ(Message(temperature),
            "Unsupported value: 'temperature' does not support 0.2 with this model. Only the "
            "default (1) value is supported.");
}

// With require_parameters, OpenRouter routes only to endpoints that take every parameter: o3
// through OpenRouter with parallel_tool_calls has none left.
TEST(SimModelChecksTest, OpenRouterFindsNoEndpointForParametersTheUpstreamRefuses) {
  auto sim = testing::StartSim();
  Json req = TestJson("openai_tools.json");
  req.set("model", "openai/o3-mini");
  req.set("parallel_tool_calls", false);
  req.set("provider", *ParseJson(R"({"require_parameters":true})"));
  auto r = OpenAi(sim->port(), req);
  EXPECT_EQ(r.status, 404) << r.body;
  EXPECT_EQ(Message(r).rfind("No endpoints found that can handle the requested parameters.", 0),
            0u);
  req.set("model", "openai/gpt-4o");
  EXPECT_EQ(OpenAi(sim->port(), req).status, 200);
}

testing::HttpReply Anthropic(uint16_t port, const std::string& model, const char* thinking,
                             const char* effort = nullptr) {
  Json req = TestJson("anthropic_output_format.json");
  req.set("model", model);
  req.set("max_tokens", 20000);
  req.set("thinking", *ParseJson(thinking));
  if (effort) req["output_config"].set("effort", effort);
  return Post(port, "/v1/messages", testing::AnthropicHeaders(), ToJson(req));
}

TEST(SimModelChecksTest, AnthropicRefusesTheThinkingFormTheModelDoesNotTake) {
  auto sim = testing::StartSim();
  const char* adaptive = R"({"type":"adaptive"})";
  const char* budget = R"({"type":"enabled","budget_tokens":4096})";
  auto sonnet45 = Anthropic(sim->port(), "claude-sonnet-4-5", adaptive, "medium");
  EXPECT_EQ(sonnet45.status, 400);
  // Anthropic's error body, with its request_id.
  EXPECT_EQ(ToJson(*sonnet45.json.find("error")),
            R"({"type":"invalid_request_error",)"
            R"("message":"adaptive thinking is not supported on this model"})");
  EXPECT_NE(sonnet45.json.find("request_id"), nullptr);
  auto opus47 = Anthropic(sim->port(), "claude-opus-4-7", budget);
  EXPECT_EQ(opus47.status, 400);
  EXPECT_EQ(Message(opus47),
            "\"thinking.type.enabled\" is not supported for this model. Use "
            "\"thinking.type.adaptive\" and \"output_config.effort\" to control thinking "
            "behavior.");
  auto xhigh = Anthropic(sim->port(), "claude-sonnet-4-6", adaptive, "xhigh");
  EXPECT_EQ(xhigh.status, 400);
  EXPECT_EQ(Message(xhigh),
            "output_config.effort: Input should be 'low', 'medium', 'high' or 'max'");
  EXPECT_EQ(Anthropic(sim->port(), "claude-sonnet-4-5", budget).status, 200);
  EXPECT_EQ(Anthropic(sim->port(), "claude-sonnet-4-6", adaptive, "max").status, 200);
  EXPECT_EQ(Anthropic(sim->port(), "claude-opus-4-7", adaptive, "xhigh").status, 200);
}

// Structured outputs (output_config.format, strict tools) only where the model table has them;
// Opus 4.7 turns thinking off by leaving `thinking` out, and refuses type "disabled".
TEST(SimModelChecksTest, AnthropicRefusesStructuredOutputsAndDisabledThinkingWhereTheModelHasNone) {
  auto sim = testing::StartSim();
  Json req = TestJson("anthropic_output_format.json");
  for (const char* model : {"claude-sonnet-4-20250514", "claude-opus-4-1-20250805",
                            "claude-3-7-sonnet-20250219", "claude-3-5-haiku-20241022"}) {
    req.set("model", model);
    auto r = Post(sim->port(), "/v1/messages", testing::AnthropicHeaders(), ToJson(req));
    EXPECT_EQ(r.status, 400) << model << ": " << r.body;
    EXPECT_EQ(Message(r), "'" + std::string(model) + "' does not support output format.");
    Json plain = req;
    plain.erase("output_config");
    EXPECT_EQ(Post(sim->port(), "/v1/messages", testing::AnthropicHeaders(), ToJson(plain)).status,
              200)
        << model;
  }
  Json tools = TestJson("anthropic_tools.json");
  tools.set("model", "claude-sonnet-4-20250514");
  tools["tools"].as_array()[0].set("strict", true);
  auto strict = Post(sim->port(), "/v1/messages", testing::AnthropicHeaders(), ToJson(tools));
  EXPECT_EQ(strict.status, 400) << strict.body;
  EXPECT_EQ(Message(strict), "'claude-sonnet-4-20250514' does not support strict tools.");
  // Sonnet 4.5 takes strict tools (whose schemas close their objects).
  tools.set("model", "claude-sonnet-4-5");
  tools["tools"].as_array()[0]["input_schema"].set("additionalProperties", false);
  auto taken = Post(sim->port(), "/v1/messages", testing::AnthropicHeaders(), ToJson(tools));
  EXPECT_EQ(taken.status, 200) << taken.body;
  auto disabled = Anthropic(sim->port(), "claude-opus-4-7", R"({"type":"disabled"})");
  EXPECT_EQ(disabled.status, 400);
  EXPECT_NE(Message(disabled).find("Omit \"thinking\" to turn thinking off"), std::string::npos)
      << Message(disabled);
  EXPECT_EQ(Anthropic(sim->port(), "claude-sonnet-4-5", R"({"type":"disabled"})").status, 200);
}

// Ollama answers 400 to `think` for a model without thinking, and to a level for a model that
// takes only true or false.
TEST(SimModelChecksTest, OllamaRefusesThinkWhereTheModelDoesNotTakeIt) {
  auto sim = testing::StartSim();
  Json req = TestJson("ollama_format.json");
  req.set("model", "llama3.1:8b");
  req.set("think", true);
  auto r = Post(sim->port(), "/api/chat", {}, ToJson(req));
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(ToJson(r.json), R"({"error":"\"llama3.1:8b\" does not support thinking"})");
  req.set("model", "qwen3:8b");
  req.set("think", "medium");
  auto level = Post(sim->port(), "/api/chat", {}, ToJson(req));
  EXPECT_EQ(level.status, 400) << level.body;
  EXPECT_EQ(ToJson(level.json),
            R"({"error":"think value \"medium\" is not supported for this model"})");
  req.set("think", true);
  EXPECT_EQ(Post(sim->port(), "/api/chat", {}, ToJson(req)).status, 200);
  req.set("model", "gpt-oss:20b");
  req.set("think", "medium");
  EXPECT_EQ(Post(sim->port(), "/api/chat", {}, ToJson(req)).status, 200);
  req.set("model", "llama3.1:8b");
  req.set("think", false);
  EXPECT_EQ(Post(sim->port(), "/api/chat", {}, ToJson(req)).status, 200);
}

testing::HttpReply Gemini(uint16_t port, const std::string& model, const char* thinking_config) {
  Json req = TestJson("gemini_json_schema.json");
  req["generationConfig"].set("thinkingConfig", *ParseJson(thinking_config));
  return Post(port, "/v1beta/models/" + model + ":generateContent", testing::GeminiHeaders(),
              ToJson(req));
}

TEST(SimModelChecksTest, GeminiRefusesLevelsOn25AndWhatGemini3DoesNotTake) {
  auto sim = testing::StartSim();
  auto level25 = Gemini(sim->port(), "gemini-2.5-flash", R"({"thinkingLevel":"LOW"})");
  EXPECT_EQ(level25.status, 400);
  EXPECT_EQ(ToJson(level25.json),
            R"({"error":{"code":400,"message":"Thinking level is not supported for this model.",)"
            R"("status":"INVALID_ARGUMENT"}})");
  auto lower = Gemini(sim->port(), "gemini-3-flash-preview", R"({"thinkingLevel":"low"})");
  EXPECT_EQ(lower.status, 400);
  EXPECT_EQ(Message(lower).rfind(
                "Invalid value at 'generation_config.thinking_config.thinking_level'", 0),
            0u);
  auto minimal = Gemini(sim->port(), "gemini-3-pro-preview", R"({"thinkingLevel":"MINIMAL"})");
  EXPECT_EQ(minimal.status, 400);
  EXPECT_EQ(Message(minimal),
            "Unable to submit request because thinking_level MINIMAL is not supported by this "
            "model.");
  auto off = Gemini(sim->port(), "gemini-3-pro-preview", R"({"thinkingBudget":0})");
  EXPECT_EQ(off.status, 400);
  EXPECT_EQ(Message(off), "The model does not support setting thinking_budget to 0.");
  auto range = Gemini(sim->port(), "gemini-2.5-pro", R"({"thinkingBudget":50000})");
  EXPECT_EQ(range.status, 400);
  EXPECT_EQ(Message(range), "The thinking budget (50000) is invalid.");
  auto old = Gemini(sim->port(), "gemini-2.0-flash", R"({"thinkingBudget":1024})");
  EXPECT_EQ(old.status, 400);
  EXPECT_EQ(Message(old), "thinking_config is not supported.");
  EXPECT_EQ(Gemini(sim->port(), "gemini-2.5-flash", R"({"thinkingBudget":0})").status, 200);
  EXPECT_EQ(Gemini(sim->port(), "gemini-3-pro-preview", R"({"thinkingLevel":"HIGH"})").status, 200);
  EXPECT_EQ(Gemini(sim->port(), "gemini-3-flash-preview", R"({"thinkingLevel":"MINIMAL"})").status,
            200);
}

}  // namespace
}  // namespace structure::sim
