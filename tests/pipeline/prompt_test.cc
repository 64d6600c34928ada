// The content stage's system prompt for real plans: the need instruction describes the form the
// provider was given, and servers that enforce a schema without showing it to
// the model get it in the prompt, descriptions included (item 6).
#include "pipeline/loop/prompt.h"

#include <gtest/gtest.h>

#include "pipeline/loop/content_loop.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/schema_stage.h"

namespace structure::pipeline {
namespace {

constexpr const char* kSchema = R"({"type":"object","properties":{
  "name":{"type":"string","description":"Who filed the ticket, as written in the text."}},
  "required":["name"],"additionalProperties":false})";

std::string SystemPrompt(const std::string& profile, bool final_tool = false) {
  auto resolved = ResolveSchema(*ParseJson(kSchema), "inline");
  EXPECT_TRUE(resolved.ok());
  PlanOptions options;
  options.final_tool = final_tool;
  auto plan = MakeLoopPlan(*resolved, *FindProfile(profile), options);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  LoopSpec spec;
  spec.plan = *plan;
  spec.prompt = "text";
  spec.model = "m";
  LoopState st;
  Step s = Start(spec, st);
  return std::get<SendCall>(s).call.system;
}

TEST(PromptTest, EnvelopeProvidersAreToldToSetResultNullAndNeed) {
  for (const char* profile : {"openai-strict", "gemini", "gemini-legacy"}) {
    std::string s = SystemPrompt(profile);
    EXPECT_NE(s.find("set \"result\" to null and \"_need\" to a short description of what is "
                     "missing; otherwise put the answer in \"result\" and set \"_need\" to null"),
              std::string::npos)
        << profile << s;
    EXPECT_EQ(s.find("output {\"_need\""), std::string::npos) << profile << s;
  }
}

TEST(PromptTest, NeedToolProvidersAreToldToCallIt) {
  for (auto [profile, final_tool] : {std::pair{"anthropic-strict", false},
                                     std::pair{"openai-strict", true}, std::pair{"gemini", true}}) {
    std::string s = SystemPrompt(profile, final_tool);
    EXPECT_NE(s.find("call the tool \"need_more_input\""), std::string::npos) << profile << s;
    EXPECT_EQ(s.find("\"result\""), std::string::npos) << profile << s;
  }
}

TEST(PromptTest, UnionProvidersAreToldTheBareNeedObject) {
  for (const char* profile : {"ollama", "vllm", "json"}) {
    std::string s = SystemPrompt(profile);
    EXPECT_NE(s.find("output {\"_need\": \"<short description of what's missing>\"} and nothing "
                     "else"),
              std::string::npos)
        << profile << s;
  }
}

TEST(PromptTest, GrammarServersSeeTheSchemaWithItsDescriptions) {
  for (const char* profile : {"ollama", "vllm", "llamacpp"}) {
    std::string s = SystemPrompt(profile);
    EXPECT_NE(s.find("The answer must follow this JSON Schema"), std::string::npos) << profile;
    EXPECT_NE(s.find("Who filed the ticket, as written in the text."), std::string::npos)
        << profile << s;
  }
  // Providers that show the schema to the model do not repeat it.
  for (const char* profile : {"openai-strict", "anthropic-strict", "gemini"}) {
    EXPECT_EQ(SystemPrompt(profile).find("Who filed the ticket"), std::string::npos) << profile;
  }
  // The fallback path shows the user's schema as before.
  EXPECT_NE(SystemPrompt("json").find("Answer with the JSON value only"), std::string::npos);
}

}  // namespace
}  // namespace structure::pipeline
