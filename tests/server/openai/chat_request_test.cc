#include "server/openai/chat_request.h"

#include <gtest/gtest.h>

namespace structure::server::openai {
namespace {

constexpr const char* kSchema =
    R"({"type":"object","properties":{"id":{"type":"string","pattern":"^T-[0-9]+$"}},"required":["id"]})";

// A valid request with `extra` members added (or replacing) at the top level.
Json Body(const std::string& extra = "") {
  std::string text = R"({"model":"default:fast","messages":[{"role":"user","content":"T-7"}],)"
                     R"("response_format":{"type":"json_schema","json_schema":{"name":"t",)"
                     R"("strict":true,"schema":)" +
                     std::string(kSchema) + "}}}";
  Json body = *ParseJson(text);
  if (!extra.empty()) {
    Json more = *ParseJson("{" + extra + "}");
    for (auto& [k, v] : more.as_object()) body.set(k, v);
  }
  return body;
}

ApiError ErrorOf(const Json& body, const ChatLimits& limits = {}) {
  auto r = ParseChatRequest(body, limits);
  EXPECT_TRUE(std::holds_alternative<ApiError>(r)) << ToJson(body);
  return std::holds_alternative<ApiError>(r) ? std::get<ApiError>(r) : ApiError{};
}

ChatRequest Ok(const Json& body) {
  auto r = ParseChatRequest(body, {});
  if (auto* e = std::get_if<ApiError>(&r)) ADD_FAILURE() << e->message;
  return std::holds_alternative<ChatRequest>(r) ? std::get<ChatRequest>(r) : ChatRequest{};
}

TEST(ChatRequestTest, JsonSchemaFormatIsTheSchemaAndUserTextThePrompt) {
  ChatRequest r = Ok(Body());
  EXPECT_EQ(r.model, "default:fast");
  ASSERT_NE(r.schema, nullptr);
  EXPECT_EQ(*r.schema, *ParseJson(kSchema));
  EXPECT_EQ(r.schema_param, "response_format.json_schema.schema");
  EXPECT_EQ(r.prompt, "T-7");
  EXPECT_TRUE(r.tool_name.empty());
  EXPECT_FALSE(r.stream);
}

TEST(ChatRequestTest, SystemMessagesAreInstructionsAndTurnsKeepRolesInOrder) {
  ChatRequest r = Ok(Body(R"("messages":[
      {"role":"system","content":"Be brief."},
      {"role":"user","content":[{"type":"text","text":"Ticket"},{"type":"text","text":"T-1"}]},
      {"role":"assistant","content":"Which one?"},
      {"role":"developer","content":"Ids start with T-."},
      {"role":"user","content":"T-2"}])"));
  EXPECT_EQ(r.instructions, "Be brief.\n\nIds start with T-.");
  ASSERT_EQ(r.turns.size(), 3u);
  EXPECT_EQ(r.turns[0].role, TurnRole::kUser);
  EXPECT_EQ(r.turns[0].text, "Ticket\nT-1");
  EXPECT_EQ(r.turns[1].role, TurnRole::kAssistant);
  EXPECT_EQ(r.turns[2].text, "T-2");
  EXPECT_EQ(r.prompt, "Ticket\nT-1\n\nT-2");
}

TEST(ChatRequestTest, JsonObjectAsksForAnyObject) {
  ChatRequest r = Ok(Body(R"("response_format":{"type":"json_object"})"));
  EXPECT_EQ(ToJson(*r.schema), R"({"type":"object"})");
}

TEST(ChatRequestTest, ForcedToolIsFinalToolModeOnItsParameters) {
  ChatRequest r = Ok(Body(R"("response_format":null,"tools":[
      {"type":"function","function":{"name":"other","parameters":{"type":"object"}}},
      {"type":"function","function":{"name":"Ticket","parameters":)" +
                          std::string(kSchema) + R"(}}],
      "tool_choice":{"type":"function","function":{"name":"Ticket"}})"));
  EXPECT_EQ(r.tool_name, "Ticket");
  EXPECT_EQ(*r.schema, *ParseJson(kSchema));
  EXPECT_EQ(r.schema_param, "tools[1].function.parameters");
}

TEST(ChatRequestTest, RequiredWithOneToolForcesIt) {
  ChatRequest r = Ok(Body(R"("response_format":null,"tool_choice":"required",
      "tools":[{"type":"function","function":{"name":"T","parameters":{"type":"object"}}}])"));
  EXPECT_EQ(r.tool_name, "T");
}

TEST(ChatRequestTest, ParametersAndExtensionAreRead) {
  ChatRequest r = Ok(Body(R"("temperature":0.2,"top_p":0.5,"seed":7,"max_completion_tokens":99,
      "reasoning_effort":"low","user":"u1","stream":true,"stream_options":{"include_usage":true},
      "n":1,"logprobs":false,"frequency_penalty":0,"stop":null,
      "structure":{"maxLoops":4,"evidence":"report","need":"error","project":"p"})"));
  EXPECT_EQ(r.params.temperature, 0.2);
  EXPECT_EQ(r.params.top_p, 0.5);
  EXPECT_EQ(r.params.seed, 7);
  EXPECT_EQ(r.params.max_tokens, 99);
  EXPECT_EQ(r.params.reasoning_effort, "low");
  EXPECT_EQ(r.params.user, "u1");
  EXPECT_TRUE(r.stream);
  EXPECT_TRUE(r.include_usage);
  EXPECT_EQ(r.max_loops, 4);
  EXPECT_EQ(r.evidence, config::EvidenceMode::kReport);
  EXPECT_EQ(r.need, NeedAs::kError);
  EXPECT_EQ(r.project, "p");
}

TEST(ChatRequestTest, RegistrySchemaNameReplacesResponseFormat) {
  ChatRequest r =
      Ok(Body(R"("response_format":null,"structure":{"schemaName":"user-action-record"})"));
  EXPECT_EQ(r.registry_schema, "user-action-record");
  EXPECT_EQ(r.schema, nullptr);
  ApiError both = ErrorOf(Body(R"("structure":{"schemaName":"x"})"));
  EXPECT_EQ(both.param, "structure.schemaName");
}

TEST(ChatRequestTest, TwoToolsWithOneNameAreRefusedNamingBoth) {
  ApiError e = ErrorOf(Body(R"("response_format":null,"tools":[
      {"type":"function","function":{"name":"a"}},{"type":"function","function":{"name":"b"}},
      {"type":"function","function":{"name":"a"}}],
      "tool_choice":{"type":"function","function":{"name":"a"}})"));
  EXPECT_EQ(e.param, "tools[2].function.name");
  EXPECT_EQ(e.code, "duplicate_function_name");
  EXPECT_NE(e.message.find("\"a\" is also the name of tools[0]"), std::string::npos) << e.message;
  // Without a tool_choice too: the tools themselves are wrong.
  EXPECT_EQ(ErrorOf(Body(R"("tools":[{"type":"function","function":{"name":"a"}},
                             {"type":"function","function":{"name":"a"}}])"))
                .param,
            "tools[1].function.name");
}

TEST(ChatRequestTest, EveryOtherToolChoiceShapeSaysWhatToSendInstead) {
  const std::string tools = R"("response_format":null,"tools":[
      {"type":"function","function":{"name":"extract"}}],)";
  ApiError allowed = ErrorOf(Body(tools + R"("tool_choice":{"type":"allowed_tools",
      "allowed_tools":{"mode":"required","tools":[{"type":"function","function":{"name":"extract"}}]}})"));
  EXPECT_EQ(allowed.param, "tool_choice");
  EXPECT_EQ(allowed.code, "unsupported_value");
  EXPECT_NE(allowed.message.find("allowed_tools\"} is not supported"), std::string::npos)
      << allowed.message;
  EXPECT_NE(allowed.message.find(
                R"(send tool_choice {"type": "function", "function": {"name": "extract"}})"),
            std::string::npos)
      << allowed.message;
  for (const char* type : {"custom", "mcp", "file_search", "web_search_preview"}) {
    ApiError e = ErrorOf(Body(tools + R"("tool_choice":{"type":")" + std::string(type) + R"("})"));
    EXPECT_EQ(e.param, "tool_choice") << type;
    EXPECT_NE(e.message.find("send tool_choice {\"type\": \"function\""), std::string::npos)
        << e.message;
  }
  ApiError odd = ErrorOf(Body(tools + R"("tool_choice":{"type":"telepathy"})"));
  EXPECT_EQ(odd.param, "tool_choice.type");
  EXPECT_NE(odd.message.find("was \"telepathy\""), std::string::npos) << odd.message;
  EXPECT_EQ(ErrorOf(Body(tools + R"("tool_choice":{"type":5})")).param, "tool_choice.type");
}

TEST(ChatRequestTest, ASchemaModelNamesTheSchemaWhateverResponseFormatSays) {
  for (const char* format : {R"({"type":"json_object"})", R"({"type":"text"})", "null"}) {
    ChatRequest r =
        Ok(Body(R"("model":"schema:invoice@1.2","response_format":)" + std::string(format)));
    EXPECT_TRUE(r.schema_model);
    EXPECT_EQ(r.registry_schema, "invoice");
    EXPECT_EQ(r.registry_version, "1.2");
    EXPECT_EQ(r.schema, nullptr);
  }
  ChatRequest plain = Ok(Body(R"("model":"schema:invoice")"));
  EXPECT_EQ(plain.registry_schema, "invoice");
  EXPECT_EQ(plain.registry_version, "");
  EXPECT_EQ(ErrorOf(Body(R"("model":"schema:")")).param, "model");
  EXPECT_EQ(ErrorOf(Body(R"("model":"schema:Invoice")")).param, "model");
  EXPECT_EQ(ErrorOf(Body(R"("model":"schema:invoice@one")")).param, "model");
  EXPECT_EQ(ErrorOf(Body(R"("model":"schema:a","structure":{"schemaName":"b"})")).param,
            "structure.schemaName");
}

struct BadCase {
  const char* extra;
  const char* param;
  int status;
};

class ChatRequestBadInputTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(ChatRequestBadInputTest, NamesTheField) {
  const BadCase& c = GetParam();
  ApiError e = ErrorOf(Body(c.extra));
  EXPECT_EQ(e.param, c.param) << e.message;
  EXPECT_EQ(e.status, c.status) << e.message;
  EXPECT_EQ(e.type, "invalid_request_error");
  EXPECT_EQ(e.message.rfind(c.param, 0), 0u) << e.message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ChatRequestBadInputTest,
    ::testing::Values(
        BadCase{R"("messages":[])", "messages", 400},
        BadCase{R"("messages":"hi")", "messages", 400},
        BadCase{R"("messages":[{"role":"system","content":"x"}])", "messages", 400},
        BadCase{R"("messages":[{"role":"user","content":5}])", "messages[0].content", 400},
        BadCase{R"("messages":[{"role":"robot","content":"x"}])", "messages[0].role", 400},
        BadCase{R"("messages":[{"role":"user","content":[{"type":"text","text":"x"},
                  {"type":"image_url","image_url":{"url":"data:"}}]}])",
                "messages[0].content[1].image_url.url", 400},
        BadCase{R"("messages":[{"role":"user","content":[{"type":"input_audio"}]}])",
                "messages[0].content[0]", 400},
        BadCase{R"("model":5)", "model", 400}, BadCase{R"("model":null)", "model", 400},
        BadCase{R"("response_format":null)", "response_format", 400},
        BadCase{R"("response_format":{"type":"text"})", "response_format", 400},
        BadCase{R"("response_format":{"type":"xml"})", "response_format.type", 400},
        BadCase{R"("response_format":{"type":"json_schema","json_schema":{"name":"t"}})",
                "response_format.json_schema.schema", 400},
        BadCase{
            R"("response_format":{"type":"json_schema","json_schema":{"name":"t","schema":"s"}})",
            "response_format.json_schema.schema", 400},
        BadCase{R"("response_format":{"type":"json_schema","json_schema":{"name":5,"schema":{}}})",
                "response_format.json_schema.name", 400},
        BadCase{R"("tools":[{"type":"function","function":{"name":"a"}}],
                  "tool_choice":{"type":"function","function":{"name":"b"}})",
                "tool_choice.function.name", 400},
        BadCase{R"("tool_choice":{"type":"function","function":null})", "tool_choice.function.name",
                400},
        BadCase{R"("tool_choice":{"type":"function","function":7})", "tool_choice.function.name",
                400},
        BadCase{R"("tools":{"a":1})", "tools", 400},
        BadCase{R"("tools":[{"type":"web_search"}])", "tools[0].type", 400},
        BadCase{R"("tool_choice":"sometimes")", "tool_choice", 400}, BadCase{R"("n":2)", "n", 400},
        BadCase{R"("n":"1")", "n", 400}, BadCase{R"("logprobs":true)", "logprobs", 400},
        BadCase{R"("top_logprobs":3)", "top_logprobs", 400},
        BadCase{R"("audio":{"voice":"alloy","format":"wav"})", "audio", 400},
        BadCase{R"("modalities":["text","audio"])", "modalities", 400},
        BadCase{R"("functions":[])", "functions", 400},
        BadCase{R"("temperature":"hot")", "temperature", 400},
        BadCase{R"("temperature":3)", "temperature", 400}, BadCase{R"("top_p":-1)", "top_p", 400},
        BadCase{R"("seed":1.5)", "seed", 400}, BadCase{R"("max_tokens":0)", "max_tokens", 400},
        BadCase{R"("max_completion_tokens":"many")", "max_completion_tokens", 400},
        BadCase{R"("reasoning_effort":"extreme")", "reasoning_effort", 400},
        BadCase{R"("user":7)", "user", 400}, BadCase{R"("stream":"yes")", "stream", 400},
        BadCase{R"("stream_options":{"include_usage":1})", "stream_options.include_usage", 400},
        BadCase{R"("bogus":1)", "bogus", 400}, BadCase{R"("structure":[])", "structure", 400},
        BadCase{R"("structure":{"maxLoops":99})", "structure.maxLoops", 400},
        BadCase{R"("structure":{"evidence":"always"})", "structure.evidence", 400},
        BadCase{R"("structure":{"need":"maybe"})", "structure.need", 400},
        BadCase{R"("structure":{"tenant":5})", "structure.tenant", 400},
        BadCase{R"("structure":{"loops":2})", "structure.loops", 400}));

TEST(ChatRequestTest, BodyThatIsNotAnObjectIsRefused) {
  EXPECT_EQ(ErrorOf(*ParseJson("[1]")).param, "body");
}

TEST(ChatRequestTest, SizeLimitsAre413NamingTheField) {
  ChatLimits small;
  small.max_prompt_bytes = 2;
  ApiError prompt = ErrorOf(Body(), small);
  EXPECT_EQ(prompt.status, 413);
  EXPECT_EQ(prompt.param, "messages");
  EXPECT_NE(prompt.message.find("server.max_prompt_bytes"), std::string::npos);
  ChatLimits tiny_schema;
  tiny_schema.max_schema_bytes = 10;
  ApiError schema = ErrorOf(Body(), tiny_schema);
  EXPECT_EQ(schema.status, 413);
  EXPECT_EQ(schema.param, "response_format.json_schema.schema");
  ChatLimits shallow;
  shallow.max_schema_depth = 2;
  ApiError deep = ErrorOf(Body(), shallow);
  EXPECT_EQ(deep.status, 400);
  EXPECT_NE(deep.message.find("nested deeper"), std::string::npos) << deep.message;
}

TEST(ChatRequestTest, ToStructureRequestCarriesConversationScopeAndSettings) {
  ChatRequest chat = Ok(Body(R"("temperature":0.1,"structure":{"maxLoops":2})"));
  pipeline::StructureRequest s = ToStructureRequest(chat, "simulator/sim-1", "acme", "billing");
  EXPECT_EQ(s.prompt, "T-7");
  ASSERT_EQ(s.turns.size(), 1u);
  EXPECT_EQ(s.mode, pipeline::SchemaMode::kJson);
  EXPECT_EQ(s.settings.model, "simulator/sim-1");
  EXPECT_EQ(s.settings.max_loops, 2);
  EXPECT_EQ(s.tenant, "acme");
  EXPECT_EQ(s.project, "billing");
  EXPECT_EQ(s.params.temperature, 0.1);
  EXPECT_FALSE(s.final_tool);
}

}  // namespace
}  // namespace structure::server::openai
