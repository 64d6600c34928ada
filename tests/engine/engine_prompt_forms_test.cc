// The prompt forms end to end through `structure sim`, read from the requests it received
// (--record-requests): servers that enforce a schema without showing it to the model (Ollama,
// vLLM, llama.cpp) get the schema with its descriptions in the system prompt, and every
// provider's system prompt states the need instruction in the form that provider was given
// (need tool, OpenAI envelope, union/grammar, fallback). Every answer comes back ok. And item 8:
// an answer that skips the envelope but fits the user's schema is ok and counted as "form
// ignored", a bare {"_need": ...} is a need, and errors speak of the user's schema only.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "base/read_file.h"
#include "engine/engine_internal.h"
#include "tests/support/engine_fixture.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

constexpr const char* kConfig = R"(
[providers.openai]
kind = "openai"
model = "gpt-4o-test"
[providers.anthropic]
kind = "anthropic"
model = "claude-test"
[providers.gemini]
kind = "gemini"
model = "gemini-2.0-flash"
[providers.ollama]
kind = "ollama"
model = "llama-test"
[providers.vllm]
kind = "vllm"
model = "served"
[providers.llamacpp]
kind = "llamacpp"
model = "local"
[providers.fallback]
kind = "openai-compatible"
model = "plain"
profile = "json"
[aliases]
"default:fast" = "openai"
"default:analyze" = "openai"
)";

constexpr const char* kSchema = R"({"type":"object","properties":{
  "name":{"type":"string","description":"Who filed the ticket, as written in the text."},
  "priority":{"enum":["low","medium","high"]}},
  "required":["name","priority"],"additionalProperties":false})";
constexpr const char* kDescription = "Who filed the ticket, as written in the text.";

constexpr const char* kEnvelopeRule =
    "set \"result\" to null and \"_need\" to a short description of what is missing";
constexpr const char* kToolRule = "call the tool \"need_more_input\"";
constexpr const char* kBareRule =
    "output {\"_need\": \"<short description of what's missing>\"} and nothing else";
constexpr const char* kSchemaShown = "The answer must follow this JSON Schema";

std::string RequestsFile() {
  static const std::string path =
      ::testing::TempDir() + "engine_prompt_forms_" + std::to_string(getpid()) + ".jsonl";
  return path;
}

// Every string under `v`, one per line.
void Strings(const Json& v, std::string& out) {
  if (v.is_string()) {
    out += v.as_string();
    out += '\n';
  } else if (v.is_array()) {
    for (const Json& e : v.as_array()) Strings(e, out);
  } else if (v.is_object()) {
    for (const auto& [k, e] : v.as_object()) Strings(e, out);
  }
}

// The system prompt of a request body in any provider's shape: Anthropic `system`, Gemini
// `systemInstruction`, or the chat messages with role system (OpenAI, Ollama).
std::string SystemText(const Json& body) {
  std::string out;
  if (const Json* s = body.find("system")) Strings(*s, out);
  if (const Json* s = body.find("systemInstruction")) Strings(*s, out);
  if (const Json* m = body.find("messages"); m && m->is_array()) {
    for (const Json& msg : m->as_array()) {
      const Json* role = msg.find("role");
      if (role && role->is_string() && role->as_string() == "system" && msg.find("content")) {
        Strings(*msg.find("content"), out);
      }
    }
  }
  return out;
}

class EnginePromptFormsTest : public testing::EngineFixture<EnginePromptFormsTest> {
 public:
  static std::unique_ptr<testing::ChildProcess> StartSuiteSim(std::string* error) {
    std::remove(RequestsFile().c_str());
    return testing::StartSim(
        STRUCTURE_BINARY,
        {"--record-requests", RequestsFile(), "--scenario",
         std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/engine/form_ignored_scenario.json"},
        error);
  }
  static void TearDownTestSuite() {
    EngineFixture::TearDownTestSuite();
    std::remove(RequestsFile().c_str());
  }

 protected:
  void SetUp() override { StartEngineWithConfig(kConfig, "engine_prompt_forms_test.toml"); }

  StructureResult Run(const std::string& prompt, const std::string& model) {
    auto req = ParseRequest(*ParseJson(R"({"prompt":")" + prompt + R"(","model":")" + model +
                                       R"(","schema":)" + kSchema + "}"));
    EXPECT_TRUE(req.ok()) << req.status().message();
    return engine_->Run(*req);
  }

  // Runs one call whose prompt holds `marker`; the first request the simulator received for it.
  Json FirstRequest(const std::string& marker, const std::string& model, bool final_tool = false) {
    auto req = ParseRequest(*ParseJson(R"({"prompt":"Ticket )" + marker +
                                       R"(: Mike says the export hangs, priority high","model":")" +
                                       model + R"(","schema":)" + kSchema +
                                       (final_tool ? R"(,"finalTool":true)" : "") + "}"));
    EXPECT_TRUE(req.ok()) << req.status().message();
    StructureResult r = engine_->Run(*req);
    EXPECT_EQ(r.status, Outcome::kOk) << model << ": " << ToJson(ResultToJson(r));
    auto text = ReadFile(RequestsFile());
    EXPECT_TRUE(text.ok()) << "the simulator recorded no request";
    if (!text.ok()) return Json();
    size_t pos = 0;
    while (pos < text->size()) {
      size_t nl = text->find('\n', pos);
      if (nl == std::string::npos) nl = text->size();
      auto line = ParseJson(std::string_view(*text).substr(pos, nl - pos));
      pos = nl + 1;
      if (!line.ok() || !line->find("body")) continue;
      const std::string& body = line->find("body")->as_string();
      if (body.find("Ticket " + marker + ":") == std::string::npos) continue;
      auto parsed = ParseJson(body);
      EXPECT_TRUE(parsed.ok()) << body;
      return parsed.ok() ? *parsed : Json();
    }
    ADD_FAILURE() << "no request for " << marker << " in " << RequestsFile();
    return Json();
  }
};

TEST_F(EnginePromptFormsTest, GrammarServersReceiveTheSchemaWithItsDescriptionsInThePrompt) {
  for (const char* model : {"ollama/llama-test", "vllm/served", "llamacpp/local"}) {
    SCOPED_TRACE(model);
    std::string system = SystemText(FirstRequest(std::string("item6-") + model, model));
    EXPECT_NE(system.find(kSchemaShown), std::string::npos) << system;
    EXPECT_NE(system.find(kDescription), std::string::npos) << system;
  }
  // Providers that show the schema to the model natively do not repeat it in the prompt.
  for (const char* model :
       {"openai/gpt-4o-test", "anthropic/claude-test", "gemini/gemini-2.0-flash"}) {
    SCOPED_TRACE(model);
    std::string system = SystemText(FirstRequest(std::string("item6-") + model, model));
    EXPECT_FALSE(system.empty());
    EXPECT_EQ(system.find(kDescription), std::string::npos) << system;
  }
}

struct FormCase {
  const char* model;
  bool final_tool;
  const char* rule;      // the need instruction the system prompt must hold
  const char* not_rule;  // one it must not hold
};

TEST_F(EnginePromptFormsTest, EveryProviderIsToldTheNeedFormItWasGiven) {
  const FormCase cases[] = {
      {"openai/gpt-4o-test", false, kEnvelopeRule, kBareRule},       // json_schema envelope
      {"openai/gpt-4o-test", true, kToolRule, kEnvelopeRule},        // final tool + need tool
      {"anthropic/claude-test", false, kToolRule, kBareRule},        // tool
      {"gemini/gemini-2.0-flash", false, kEnvelopeRule, kBareRule},  // envelope (object root)
      {"gemini/gemini-2.0-flash", true, kToolRule, kBareRule},       // final tool + need tool
      {"ollama/llama-test", false, kBareRule, kEnvelopeRule},        // grammar (format)
      {"llamacpp/local", false, kBareRule, kEnvelopeRule},           // grammar (json_schema)
      {"fallback/plain", false, kBareRule, kToolRule},               // fallback: prompt only
  };
  for (const FormCase& c : cases) {
    std::string tag = std::string("item7-") + c.model + (c.final_tool ? "-ft" : "");
    SCOPED_TRACE(tag);
    Json body = FirstRequest(tag, c.model, c.final_tool);
    std::string system = SystemText(body);
    EXPECT_NE(system.find(c.rule), std::string::npos) << system;
    EXPECT_EQ(system.find(c.not_rule), std::string::npos) << system;
    if (c.rule == kToolRule) {
      // The tool the prompt names is in the request.
      EXPECT_NE(ToJson(body).find("\"need_more_input\""), std::string::npos) << ToJson(body);
    }
  }
  // The fallback path shows the schema itself in the prompt, as the only way the model sees it.
  std::string fallback = SystemText(FirstRequest("item7-fallback-schema", "fallback/plain"));
  EXPECT_NE(fallback.find("Answer with the JSON value only"), std::string::npos) << fallback;
  EXPECT_NE(fallback.find(kDescription), std::string::npos) << fallback;
}

// Item 8 through the simulator, on the OpenAI envelope: the scenario's answers skip it.
TEST_F(EnginePromptFormsTest, AnswersThatIgnoreTheEnvelopeAreReadAsTheUserMeantThem) {
  StructureResult skipped = Run("CASE-FORM-SKIPPED Mike, high", "openai/gpt-4o-test");
  std::string shown = ToJson(ResultToJson(skipped));
  ASSERT_EQ(skipped.status, Outcome::kOk) << shown;
  EXPECT_TRUE(skipped.form_ignored) << shown;
  EXPECT_EQ(skipped.iterations, 1) << shown;
  EXPECT_EQ(skipped.data.find("priority")->as_string(), "high");
  EXPECT_NE(shown.find("\"formIgnored\":true"), std::string::npos) << shown;
  EXPECT_EQ(EngineInternal::Stats(*engine_).schemas.at("inline").form_ignored, 1u);

  StructureResult need = Run("CASE-BARE-NEED Mike", "openai/gpt-4o-test");
  ASSERT_EQ(need.status, Outcome::kNeedMoreInput) << ToJson(ResultToJson(need));
  EXPECT_EQ(need.need, "the ticket's priority");

  StructureResult bad = Run("CASE-FORM-BAD Mike, urgent", "openai/gpt-4o-test");
  std::string text = ToJson(ResultToJson(bad));
  ASSERT_EQ(bad.status, Outcome::kStale) << text;
  ASSERT_FALSE(bad.errors.empty());
  EXPECT_NE(text.find("priority"), std::string::npos) << text;
  EXPECT_EQ(text.find("_need"), std::string::npos) << text;  // our wrapper is never named
  EXPECT_EQ(text.find("\"result\""), std::string::npos) << text;
  EXPECT_EQ(text.find("(root): (root)"), std::string::npos) << text;
}

}  // namespace
}  // namespace structure
