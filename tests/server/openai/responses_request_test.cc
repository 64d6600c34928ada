// POST /v1/responses bodies as the SDKs send them, reduced to the ChatRequest a chat completion
// becomes; every refusal names the field.
#include "server/openai/responses_request.h"

#include <gtest/gtest.h>

namespace structure::server::openai {
namespace {

constexpr const char* kSchema =
    R"({"type":"object","properties":{"id":{"type":"string","pattern":"^T-[0-9]+$"}},"required":["id"]})";

// A valid request (responses.parse with a text_format) with `extra` members added or replaced.
Json Body(const std::string& extra = "") {
  std::string text = R"({"model":"default:fast","input":"T-7","text":{"format":{)"
                     R"("type":"json_schema","name":"t","strict":true,"schema":)" +
                     std::string(kSchema) + "}}}";
  Json body = *ParseJson(text);
  if (!extra.empty()) {
    Json more = *ParseJson("{" + extra + "}");
    for (auto& [k, v] : more.as_object()) body.set(k, v);
  }
  return body;
}

ApiError ErrorOf(const Json& body, const ChatLimits& limits = {}) {
  auto r = ParseResponsesRequest(body, limits);
  EXPECT_TRUE(std::holds_alternative<ApiError>(r)) << ToJson(body);
  return std::holds_alternative<ApiError>(r) ? std::get<ApiError>(r) : ApiError{};
}

ChatRequest Ok(const Json& body) {
  auto r = ParseResponsesRequest(body, {});
  if (auto* e = std::get_if<ApiError>(&r)) ADD_FAILURE() << e->param << ": " << e->message;
  return std::holds_alternative<ChatRequest>(r) ? std::get<ChatRequest>(r) : ChatRequest{};
}

TEST(ResponsesRequestTest, TextFormatIsTheSchemaAndInputThePrompt) {
  ChatRequest r = Ok(Body(R"("instructions":"Extract the ticket.","max_output_tokens":300,)"
                          R"("reasoning":{"effort":"low"},"temperature":0.5,"store":false)"));
  EXPECT_EQ(r.model, "default:fast");
  ASSERT_NE(r.schema, nullptr);
  EXPECT_EQ(*r.schema, *ParseJson(kSchema));
  EXPECT_EQ(r.schema_param, "text.format.schema");
  EXPECT_EQ(r.prompt, "T-7");
  EXPECT_EQ(r.instructions, "Extract the ticket.");
  EXPECT_EQ(r.params.max_tokens, 300);
  EXPECT_EQ(r.params.reasoning_effort, "low");
  EXPECT_EQ(r.params.temperature, 0.5);
  EXPECT_FALSE(r.stream);
}

TEST(ResponsesRequestTest, InputItemsAreTurnsInOrderAndSystemItemsInstructions) {
  ChatRequest r = Ok(Body(R"("input":[
      {"role":"developer","content":"Ids start with T-."},
      {"type":"message","role":"user","content":[{"type":"input_text","text":"Ticket"},
                                                  {"type":"input_text","text":"T-1"}]},
      {"role":"assistant","content":[{"type":"output_text","text":"Which one?"}]},
      {"type":"function_call","call_id":"c1","name":"lookup","arguments":"{\"q\":1}"},
      {"type":"function_call_output","call_id":"c1","output":"T-2 is open"},
      {"type":"reasoning","id":"rs_1","summary":[]},
      {"role":"user","content":"T-2"}])"));
  EXPECT_EQ(r.instructions, "Ids start with T-.");
  ASSERT_EQ(r.turns.size(), 5u);
  EXPECT_EQ(r.turns[0].role, TurnRole::kUser);
  EXPECT_EQ(r.turns[0].text, "Ticket\nT-1");
  EXPECT_EQ(r.turns[1].role, TurnRole::kAssistant);
  EXPECT_EQ(r.turns[2].role, TurnRole::kAssistant);
  EXPECT_EQ(r.turns[2].text, "{\"q\":1}");
  EXPECT_EQ(r.turns[3].role, TurnRole::kUser);
  EXPECT_EQ(r.turns[3].text, "Result of tool call c1: T-2 is open");
  EXPECT_EQ(r.prompt, "Ticket\nT-1\n\nT-2");
}

TEST(ResponsesRequestTest, AForcedFunctionToolIsTheSchema) {
  ChatRequest r = Ok(Body(R"("text":null,"tools":[{"type":"function","name":"save",)"
                          R"("parameters":{"type":"object"}}],)"
                          R"("tool_choice":{"type":"function","name":"save"})"));
  EXPECT_EQ(r.tool_name, "save");
  EXPECT_EQ(r.schema_param, "tools[0].parameters");
  ASSERT_NE(r.schema, nullptr);
  EXPECT_EQ(ToJson(*r.schema), R"({"type":"object"})");
}

TEST(ResponsesRequestTest, JsonObjectAndStreamAreTaken) {
  ChatRequest r = Ok(Body(R"("text":{"format":{"type":"json_object"}},"stream":true)"));
  EXPECT_TRUE(r.stream);
  EXPECT_EQ(ToJson(*r.schema), R"({"type":"object"})");
}

TEST(ResponsesRequestTest, EachRefusalNamesTheField) {
  struct Case {
    const char* extra;
    const char* param;
    const char* code;
  };
  for (
      const Case& c : std::initializer_list<Case>{
          {R"("input":null)", "input", "missing_required_parameter"},
          {R"("input":7)", "input", "invalid_type"},
          {R"("input":[{"role":"user","content":[{"type":"input_image","image_url":"x"}]}])",
           "input[0].content[0]", "unsupported_content"},
          {R"("input":[{"role":"assistant","content":"hi"}])", "input", "missing_user_message"},
          {R"("input":[{"role":"tool","content":"x"}])", "input[0].role", "invalid_value"},
          {R"("input":[{"type":"web_search_call"}])", "input[0].type", "invalid_value"},
          {R"("text":{"format":{"type":"text"}})", "text.format", "structured_output_required"},
          {R"("text":{"format":{"type":"json_schema","name":"t"}})", "text.format.schema",
           "missing_required_parameter"},
          {R"("previous_response_id":"resp_1")", "previous_response_id", "unsupported_parameter"},
          {R"("background":true)", "background", "unsupported_value"},
          {R"("tools":[{"type":"web_search"}],"tool_choice":"required")", "tools[0].type",
           "invalid_value"},
          {R"("tools":[{"type":"function","name":"a"}],"tool_choice":{"type":"function","name":"b"})",
           "tool_choice.name", "tool_not_found"},
          {R"("tools":[{"type":"function","name":"a"}],"tool_choice":{"type":"function","name":5})",
           "tool_choice.name", "invalid_type"},
          {R"("tools":[{"type":"function","name":"a"}],"tool_choice":{"type":"function"})",
           "tool_choice.name", "missing_required_parameter"},
          {R"("tools":[{"type":"function","name":"a"},{"type":"function","name":"b"}],)"
           R"("tool_choice":"required")",
           "tool_choice", "invalid_value"},
          {R"("tools":[{"type":"function","name":"a"},{"type":"function","name":"a"}])",
           "tools[1].name", "duplicate_function_name"},
          {R"("tools":[{"type":"function","name":"a"}],"tool_choice":{"type":"allowed_tools",)"
           R"("mode":"required","tools":[{"type":"function","name":"a"}]})",
           "tool_choice", "unsupported_value"},
          {R"("tools":[{"type":"function","name":"a"}],"tool_choice":{"type":"mcp",)"
           R"("server_label":"s"})",
           "tool_choice", "unsupported_value"},
          {R"("tool_choice":{"type":"custom","name":"a"})", "tool_choice", "unsupported_value"},
          {R"("tool_choice":{"type":"code_interpreter"})", "tool_choice", "unsupported_value"},
          {R"("model":"schema:x@1")", "model", "invalid_value"},
          {R"("reasoning":{"effort":"max"})", "reasoning.effort", "invalid_value"},
          {R"("messages":[])", "messages", "unknown_parameter"},
          {R"("stream":"yes")", "stream", "invalid_type"},
      }) {
    ApiError e = ErrorOf(Body(c.extra));
    EXPECT_EQ(e.param, c.param) << c.extra << ": " << e.message;
    EXPECT_EQ(e.code, c.code) << c.extra << ": " << e.message;
    EXPECT_EQ(e.status, 400) << c.extra;
  }
}

TEST(ResponsesRequestTest, AllowedToolsSaysWhatToSendInTheResponsesShape) {
  ApiError e = ErrorOf(Body(R"("text":null,"tools":[{"type":"function","name":"pick"}],)"
                            R"("tool_choice":{"type":"allowed_tools","mode":"auto",)"
                            R"("tools":[{"type":"function","name":"pick"}]})"));
  EXPECT_NE(e.message.find(R"(send tool_choice {"type": "function", "name": "pick"})"),
            std::string::npos)
      << e.message;
}

TEST(ResponsesRequestTest, ASchemaModelIgnoresTextFormat) {
  ChatRequest r = Ok(Body(R"("model":"schema:invoice","text":{"format":{"type":"json_object"}})"));
  EXPECT_TRUE(r.schema_model);
  EXPECT_EQ(r.registry_schema, "invoice");
  EXPECT_EQ(r.schema, nullptr);
  EXPECT_TRUE(Ok(Body(R"("model":"schema:invoice","text":null)")).schema_model);
}

TEST(ResponsesRequestTest, InputOverTheLimitIs413) {
  ChatLimits limits;
  limits.max_prompt_bytes = 10;
  ApiError e = ErrorOf(Body(R"("input":"a prompt longer than ten bytes")"), limits);
  EXPECT_EQ(e.status, 413);
  EXPECT_EQ(e.param, "input");
}

}  // namespace
}  // namespace structure::server::openai
