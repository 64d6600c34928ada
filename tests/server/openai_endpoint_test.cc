// POST /v1/chat/completions, POST /v1/responses and GET /v1/models end to end: `structure serve`
// (child process) in front of `structure sim` (child process), driven with libcurl and raw sockets.
// Re-asks with summed usage, the tool, refusal and stale forms, streaming with keep-alives, model
// routing, parameters reaching the provider, auth, metrics, and bad input in the OpenAI error
// shape.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "tests/server/openai_fixture.h"
#include "tests/support/http_server_harness.h"

namespace structure::testing {
namespace {

class OpenAiEndpointTest : public OpenAiFixture {};

const Json& Message(const Json& completion) {
  return *completion.find("choices")->as_array()[0].find("message");
}

TEST_F(OpenAiEndpointTest, ConstraintTheProviderMissedIsReaskedAndUsageSumsEveryCall) {
  Http("POST", sim_->base_url() + "/stats/reset");
  HttpReply r = Chat(ChatBody("CASE-REASK ticket T-123, priority 2"));
  ASSERT_EQ(r.status, 200) << r.body;
  Json j = *ParseJson(r.body);
  EXPECT_EQ(*j.find("object"), Json("chat.completion"));
  EXPECT_EQ(*j.find("model"), Json("default:fast"));
  EXPECT_EQ(Message(j).find("content")->as_string(), R"({"ticket":"T-123","priority":2})");
  EXPECT_EQ(*j.find("choices")->as_array()[0].find("finish_reason"), Json("stop"));
  EXPECT_EQ(*j.find("structure")->find("iterations"), Json(2));
  EXPECT_EQ(*j.find("structure")->find("status"), Json("ok"));
  Json stats = SimStats();
  const Json& usage = *j.find("usage");
  EXPECT_EQ(*usage.find("prompt_tokens"), *stats.find("tokens")->find("input"));
  EXPECT_EQ(*usage.find("completion_tokens"), *stats.find("tokens")->find("output"));
  EXPECT_EQ(usage.find("total_tokens")->as_int(),
            usage.find("prompt_tokens")->as_int() + usage.find("completion_tokens")->as_int());
  EXPECT_NE(usage.find("prompt_tokens_details")->find("cached_tokens"), nullptr);
  EXPECT_NE(usage.find("completion_tokens_details")->find("reasoning_tokens"), nullptr);
  EXPECT_EQ(*stats.find("requests")->find("total"), Json(2));
}

// json_object: any object, in one call (the simulator writes the lowered any-value strings as
// JSON text, as a model does).
TEST_F(OpenAiEndpointTest, JsonObjectIsAnsweredWithAnObject) {
  HttpReply r = Chat(R"({"model":"default:fast","messages":[{"role":"user","content":"Mike, p2"}],)"
                     R"("response_format":{"type":"json_object"}})");
  ASSERT_EQ(r.status, 200) << r.body;
  Json j = *ParseJson(r.body);
  auto content = ParseJson(Message(j).find("content")->as_string());
  ASSERT_TRUE(content.ok()) << r.body;
  EXPECT_TRUE(content->is_object()) << r.body;
  EXPECT_EQ(*j.find("structure")->find("iterations"), Json(1)) << r.body;
}

TEST_F(OpenAiEndpointTest, ForcedToolAnswersAsThatToolsArguments) {
  std::string body =
      R"({"model":"default:fast","messages":[{"role":"user","content":"CASE-REASK T-123 p2"}],)"
      R"("tools":[{"type":"function","function":{"name":"Ticket","parameters":)" +
      std::string(kChatTicketSchema) +
      R"(}}],"tool_choice":{"type":"function","function":{"name":"Ticket"}}})";
  HttpReply r = Chat(body);
  ASSERT_EQ(r.status, 200) << r.body;
  Json j = *ParseJson(r.body);
  const Json& call = Message(j).find("tool_calls")->as_array()[0];
  EXPECT_EQ(*call.find("function")->find("name"), Json("Ticket"));
  EXPECT_EQ(*ParseJson(call.find("function")->find("arguments")->as_string()),
            *ParseJson(R"({"ticket":"T-123","priority":2})"));
  EXPECT_TRUE(Message(j).find("content")->is_null());
  EXPECT_EQ(*j.find("choices")->as_array()[0].find("finish_reason"), Json("tool_calls"));
}

TEST_F(OpenAiEndpointTest, NeedMoreInputIsARefusalOrA422WhenAsked) {
  HttpReply r = Chat(ChatBody("CASE-NEED no ticket here"));
  ASSERT_EQ(r.status, 200) << r.body;
  Json j = *ParseJson(r.body);
  EXPECT_TRUE(Message(j).find("content")->is_null());
  EXPECT_EQ(*Message(j).find("refusal"), Json("the ticket number is not in the text"));
  HttpReply e = Chat(ChatBody("CASE-NEED no ticket here", R"(,"structure":{"need":"error"})"));
  EXPECT_EQ(e.status, 422) << e.body;
  EXPECT_EQ(*ErrorOf(e).find("code"), Json("structure_need_more_input"));
}

TEST_F(OpenAiEndpointTest, StaleIs422WithTheValidatorsMessages) {
  HttpReply r = Chat(ChatBody("CASE-STALE T-1", R"(,"structure":{"maxLoops":2})"));
  EXPECT_EQ(r.status, 422) << r.body;
  Json e = ErrorOf(r);
  EXPECT_EQ(*e.find("code"), Json("structure_stale"));
  EXPECT_EQ(*e.find("type"), Json("invalid_request_error"));
  EXPECT_NE(e.find("message")->as_string().find("/ticket"), std::string::npos) << r.body;
}

TEST_F(OpenAiEndpointTest, ProviderFailureIsA5xxTheSdksRetry) {
  HttpReply r = Chat(ChatBody("CASE-500 T-123"));
  EXPECT_GE(r.status, 500) << r.body;
  EXPECT_EQ(*ErrorOf(r).find("type"), Json("server_error")) << r.body;
}

TEST_F(OpenAiEndpointTest, StreamSendsKeepAlivesWhileReaskingThenTheObjectUsageAndDone) {
  HttpReply r = Chat(
      ChatBody("CASE-SLOW T-123 p2", R"(,"stream":true,"stream_options":{"include_usage":true})"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.headers.find("text/event-stream"), std::string::npos) << r.headers;
  size_t keepalive = r.body.find(": keep-alive\n\n");
  size_t object = r.body.find(R"(\"ticket\":\"T-123\")");
  size_t usage = r.body.find(R"("usage":{"prompt_tokens")");
  size_t done = r.body.find("data: [DONE]\n\n");
  ASSERT_NE(keepalive, std::string::npos) << r.body;
  ASSERT_NE(object, std::string::npos) << r.body;
  ASSERT_NE(usage, std::string::npos) << r.body;
  ASSERT_NE(done, std::string::npos) << r.body;
  EXPECT_LT(keepalive, object);
  EXPECT_LT(object, usage);
  EXPECT_LT(usage, done);
}

TEST_F(OpenAiEndpointTest, QuickStreamIsAnsweredWholeInTheChunkFormat) {
  HttpReply r = Chat(ChatBody("CASE-NEED none", R"(,"stream":true)"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find(R"("refusal":"the ticket number is not in the text")"), std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find("chat.completion.chunk"), std::string::npos);
  EXPECT_EQ(r.body.find("usage"), std::string::npos) << "usage only with include_usage";
}

TEST_F(OpenAiEndpointTest, ModelsListsAliasesAndProviderModels) {
  HttpReply r = Http("GET", Url("/v1/models"), "", {kAcmeKey});
  ASSERT_EQ(r.status, 200) << r.body;
  for (const char* id : {"default:fast", "simulator/sim-1", "backup/gpt-4o-mini",
                         "backup/shared-model", "simulator/shared-model"}) {
    EXPECT_NE(r.body.find(std::string("\"id\":\"") + id + "\""), std::string::npos) << id;
  }
  EXPECT_EQ(Http("GET", Url("/v1/models")).status, 401);
}

// models.retrieve: the id as the SDKs send it (a provider/model's slash escaped or not).
TEST_F(OpenAiEndpointTest, ModelRetrieveAnswersOneEntryOrModelNotFound) {
  for (const char* path : {"/v1/models/default:fast", "/v1/models/backup/gpt-4o-mini",
                           "/v1/models/backup%2Fgpt-4o-mini"}) {
    HttpReply r = Http("GET", Url(path), "", {kAcmeKey});
    ASSERT_EQ(r.status, 200) << path << ": " << r.body;
    EXPECT_NE(r.body.find(R"("object":"model")"), std::string::npos) << r.body;
  }
  HttpReply missing = Http("GET", Url("/v1/models/gpt-9"), "", {kAcmeKey});
  EXPECT_EQ(missing.status, 404);
  EXPECT_NE(missing.body.find(R"("code":"model_not_found")"), std::string::npos) << missing.body;
  EXPECT_EQ(Http("GET", Url("/v1/models/default:fast")).status, 401);
}

// Another OpenAI API (embeddings, stored responses, ...) is a 404 in OpenAI's shape that says
// what this server answers instead; a path of no API stays the native 404.
TEST_F(OpenAiEndpointTest, OtherOpenAiApisAreNamedInTheNotFound) {
  HttpReply r = Http("POST", Url("/v1/embeddings"), "{}", {kAcmeKey});
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.body.find(R"({"error":{"message":"POST /v1/embeddings is embeddings)"),
            std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find("responses.parse"), std::string::npos) << r.body;
  HttpReply stored = Http("GET", Url("/v1/responses/resp_1"), "", {kAcmeKey});
  EXPECT_EQ(stored.status, 404);
  EXPECT_NE(stored.body.find(R"("code":"unknown_url")"), std::string::npos) << stored.body;
  HttpReply other = Http("POST", Url("/v1/responsesX"), "{}", {kAcmeKey});
  EXPECT_EQ(other.status, 404);
  EXPECT_NE(other.body.find(R"("code":"not_found")"), std::string::npos) << other.body;
}

// A Responses API body (responses.parse with a text_format): the same structure call, the
// answer a response whose one message holds the validated JSON as output_text.
std::string ResponsesBody(const std::string& input, const std::string& extra = "") {
  return R"({"model":"default:fast","input":")" + input +
         R"(","text":{"format":{"type":"json_schema","name":"ticket","strict":true,"schema":)" +
         std::string(kChatTicketSchema) + "}}" + extra + "}";
}

TEST_F(OpenAiEndpointTest, ResponsesReaskTheConstraintTheProviderMissedAndSumUsage) {
  Http("POST", sim_->base_url() + "/stats/reset");
  HttpReply r =
      Http("POST", Url("/v1/responses"), ResponsesBody("CASE-REASK ticket T-123, p2"), {kAcmeKey});
  ASSERT_EQ(r.status, 200) << r.body;
  Json j = *ParseJson(r.body);
  EXPECT_EQ(*j.find("object"), Json("response"));
  EXPECT_EQ(*j.find("status"), Json("completed"));
  const Json& part = j.find("output")->as_array().at(0).find("content")->as_array().at(0);
  EXPECT_EQ(*part.find("type"), Json("output_text"));
  EXPECT_EQ(part.find("text")->as_string(), R"({"ticket":"T-123","priority":2})");
  EXPECT_EQ(*j.find("structure")->find("iterations"), Json(2));
  Json stats = SimStats();
  EXPECT_EQ(*j.find("usage")->find("input_tokens"), *stats.find("tokens")->find("input"));
  EXPECT_EQ(*j.find("usage")->find("output_tokens"), *stats.find("tokens")->find("output"));
  std::string m = Http("GET", Url("/metrics")).body;
  EXPECT_NE(m.find(R"(structure_calls_total{endpoint="responses",status="ok")"), std::string::npos);
}

TEST_F(OpenAiEndpointTest, ResponsesStreamEndsWithTheCompletedResponse) {
  HttpReply r = Http("POST", Url("/v1/responses"),
                     ResponsesBody("CASE-REASK ticket T-123, p2", R"(,"stream":true)"), {kAcmeKey});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.headers.find("text/event-stream"), std::string::npos) << r.headers;
  EXPECT_EQ(r.body.rfind("event: response.created\n", 0), 0u) << r.body;
  size_t last = r.body.find("event: response.completed\n");
  ASSERT_NE(last, std::string::npos) << r.body;
  EXPECT_NE(r.body.find(R"({\"ticket\":\"T-123\",\"priority\":2})", last), std::string::npos)
      << r.body;
}

TEST_F(OpenAiEndpointTest, ResponsesBadInputIsAnOpenAiErrorNamingTheField) {
  HttpReply r =
      Http("POST", Url("/v1/responses"),
           R"({"model":"default:fast","input":[{"role":"user","content":[)"
           R"({"type":"input_file","file_id":"f"}]}],"text":{"format":{"type":"json_object"}}})",
           {kAcmeKey});
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find(R"("param":"input[0].content[0]")"), std::string::npos) << r.body;
  EXPECT_EQ(Http("POST", Url("/v1/responses"), ResponsesBody("x")).status, 401);
  EXPECT_EQ(Http("GET", Url("/v1/responses"), "", {kAcmeKey}).status, 405);
}

TEST_F(OpenAiEndpointTest, ModelRoutesByAliasProviderModelOrBareName) {
  const size_t before = Recorded().size();  // the simulator is shared by the suite's tests
  for (const char* model : {"default:fast", "backup/gpt-4o-mini", "gpt-4o-mini", "sim-1"}) {
    HttpReply r = Chat(ChatBody("CASE-REASK T-123", "", model));
    EXPECT_EQ(r.status, 200) << model << ": " << r.body;
  }
  std::vector<Json> sent = Recorded();
  ASSERT_GE(sent.size(), before + 8);
  EXPECT_EQ(*sent[before + 2].find("model"), Json("gpt-4o-mini"));
  for (const char* model : {"gpt-5", "shared-model", "nobody/x"}) {
    HttpReply r = Chat(ChatBody("CASE-REASK T-123", "", model));
    EXPECT_EQ(r.status, 404) << model;
    EXPECT_EQ(*ErrorOf(r).find("code"), Json("model_not_found")) << r.body;
    EXPECT_EQ(*ErrorOf(r).find("param"), Json("model")) << r.body;
  }
}

TEST_F(OpenAiEndpointTest, ConversationInstructionsAndParametersReachTheProvider) {
  std::string body =
      R"({"model":"default:fast","messages":[)"
      R"({"role":"system","content":"Tickets are numbered T-000 to T-999."},)"
      R"({"role":"user","content":"CASE-REASK which ticket?"},)"
      R"({"role":"assistant","content":"Which one do you mean?"},)"
      R"({"role":"user","content":"T-123, priority 2"}],)"
      R"("response_format":{"type":"json_schema","json_schema":{"name":"t","schema":)" +
      std::string(kChatTicketSchema) +
      R"(}},"temperature":0.3,"top_p":0.8,"seed":11,"user":"end-user-1","max_tokens":500})";
  HttpReply r = Chat(body);
  ASSERT_EQ(r.status, 200) << r.body;
  std::vector<Json> sent = Recorded();
  ASSERT_FALSE(sent.empty());
  const Json& first =
      sent.back().find("messages")->size() == 4 ? sent.back() : sent[sent.size() - 2];
  const Json::Array& msgs = first.find("messages")->as_array();
  ASSERT_EQ(msgs.size(), 4u) << ToJson(first);
  EXPECT_EQ(*msgs[0].find("role"), Json("system"));
  EXPECT_NE(msgs[0].find("content")->as_string().find("Tickets are numbered"), std::string::npos);
  EXPECT_EQ(*msgs[1].find("role"), Json("user"));
  EXPECT_EQ(*msgs[2].find("role"), Json("assistant"));
  EXPECT_EQ(*msgs[2].find("content"), Json("Which one do you mean?"));
  EXPECT_EQ(*msgs[3].find("content"), Json("T-123, priority 2"));
  EXPECT_EQ(*first.find("temperature"), Json(0.3));
  EXPECT_EQ(*first.find("top_p"), Json(0.8));
  EXPECT_EQ(*first.find("seed"), Json(11));
  EXPECT_EQ(*first.find("user"), Json("end-user-1"));
  // The cap under the field the model family takes (max_completion_tokens on OpenAI's models).
  const Json* cap = first.find("max_completion_tokens");
  if (cap == nullptr) cap = first.find("max_tokens");
  ASSERT_NE(cap, nullptr) << ToJson(first);
  EXPECT_EQ(*cap, Json(500));
}

TEST_F(OpenAiEndpointTest, KeyPicksTheTenantAndScopeIsChecked) {
  HttpReply none = Chat(ChatBody("CASE-REASK T-123"), {});
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(*ErrorOf(none).find("code"), Json("invalid_api_key")) << none.body;
  HttpReply wrong = Chat(ChatBody("CASE-REASK T-123"), {"Authorization: Bearer sk-nobody"});
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(wrong.body.find("sk-nobody"), std::string::npos);
  HttpReply other = Chat(ChatBody("CASE-REASK T-123", R"(,"structure":{"tenant":"globex"})"));
  EXPECT_EQ(other.status, 403) << other.body;
  HttpReply project = Chat(ChatBody("CASE-REASK T-123", R"(,"structure":{"project":"payroll"})"));
  EXPECT_EQ(project.status, 403) << project.body;
  HttpReply own = Chat(ChatBody("CASE-REASK T-123", R"(,"structure":{"project":"billing"})"));
  EXPECT_EQ(own.status, 200) << own.body;
  EXPECT_EQ(Http("GET", Url("/v1/chat/completions"), "", {kAcmeKey}).status, 405);
}

TEST_F(OpenAiEndpointTest, MetricsCountBothEndpointsLabelled) {
  ASSERT_EQ(Chat(ChatBody("CASE-REASK T-123")).status, 200);
  std::string native =
      R"({"prompt":"CASE-REASK T-123","schema":)" + std::string(kChatTicketSchema) + "}";
  ASSERT_EQ(Http("POST", Url("/v1/structure"), native, {kAcmeKey}).status, 200);
  std::string m = Http("GET", Url("/metrics")).body;
  EXPECT_NE(m.find(R"(structure_calls_total{endpoint="chat_completions",status="ok")"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find(R"(structure_calls_total{endpoint="structure",status="ok")"), std::string::npos);
  EXPECT_NE(m.find(R"(route="/v1/chat/completions",code="200")"), std::string::npos);
}

// Bad input: the OpenAI error shape naming the field, never a crash or a hang.
struct BadRequest {
  const char* name;
  std::string body;
  int status;
  const char* param;  // "" = null
  const char* says;   // in the message
};

class OpenAiBadInputTest : public OpenAiFixture,
                           public ::testing::WithParamInterface<BadRequest> {};

TEST_P(OpenAiBadInputTest, AnswersTheOpenAiErrorShapeNamingTheField) {
  const BadRequest& c = GetParam();
  HttpReply r = Chat(c.body);
  EXPECT_EQ(r.status, c.status) << r.body;
  Json e = ErrorOf(r);
  ASSERT_TRUE(e.is_object()) << r.body;
  EXPECT_TRUE(e.find("type")->is_string()) << r.body;
  EXPECT_EQ(std::string(c.param).empty() ? Json() : Json(c.param), *e.find("param")) << r.body;
  EXPECT_NE(e.find("message")->as_string().find(c.says), std::string::npos) << r.body;
  // The server is still there.
  EXPECT_EQ(Http("GET", Url("/healthz")).status, 200);
}

const std::string kUser = R"("messages":[{"role":"user","content":"T-123"}])";

INSTANTIATE_TEST_SUITE_P(
    Rows, OpenAiBadInputTest,
    ::testing::Values(
        BadRequest{"MalformedJson", R"({"model":"default:fast",)", 400, "", "body:1:"},
        BadRequest{"NotAnObject", "[]", 400, "body", "JSON object"},
        BadRequest{"SchemaThatIsNoSchema",
                   R"({"model":"default:fast",)" + kUser +
                       R"(,"response_format":{"type":"json_schema","json_schema":{"name":"t",)"
                       R"("schema":{"type":"object","properties":{"id":{"type":12}}}}}})",
                   400, "response_format.json_schema.schema", "/properties/id/type"},
        BadRequest{"UnknownModel",
                   R"({"model":"gpt-9",)" + kUser + R"(,"response_format":{"type":"json_object"}})",
                   404, "model", "gpt-9"},
        BadRequest{
            "MessagesEmpty",
            R"({"model":"default:fast","messages":[],"response_format":{"type":"json_object"}})",
            400, "messages", "at least one message"},
        BadRequest{"NoUserTurn",
                   R"({"model":"default:fast","messages":[{"role":"system","content":"x"}],)"
                   R"("response_format":{"type":"json_object"}})",
                   400, "messages", "user message"},
        BadRequest{"ToolChoiceNamesAMissingTool",
                   R"({"model":"default:fast",)" + kUser +
                       R"(,"tools":[{"type":"function","function":{"name":"a"}}],)"
                       R"("tool_choice":{"type":"function","function":{"name":"b"}}})",
                   400, "tool_choice.function.name", "\"b\""},
        BadRequest{"NoStructuredOutput", R"({"model":"default:fast",)" + kUser + "}", 400,
                   "response_format", "structured output only"},
        BadRequest{"WrongTypeTemperature",
                   R"({"model":"default:fast",)" + kUser +
                       R"(,"response_format":{"type":"json_object"},"temperature":"hot"})",
                   400, "temperature", "a number"},
        BadRequest{"WrongTypeContent",
                   R"({"model":"default:fast","messages":[{"role":"user","content":{"a":1}}],)"
                   R"("response_format":{"type":"json_object"}})",
                   400, "messages[0].content", "an object"},
        BadRequest{"WrongTypeStream",
                   R"({"model":"default:fast",)" + kUser +
                       R"(,"response_format":{"type":"json_object"},"stream":"yes"})",
                   400, "stream", "a boolean"},
        BadRequest{"ImagePart",
                   R"({"model":"default:fast","messages":[{"role":"user","content":[)"
                   R"({"type":"image_url","image_url":{"url":"https://x/y.png"}}]}],)"
                   R"("response_format":{"type":"json_object"}})",
                   400, "messages[0].content[0].image_url.url", "base64 data URL"},
        BadRequest{"TwoChoices",
                   R"({"model":"default:fast",)" + kUser +
                       R"(,"response_format":{"type":"json_object"},"n":2})",
                   400, "n", "only 1"},
        BadRequest{"Logprobs",
                   R"({"model":"default:fast",)" + kUser +
                       R"(,"response_format":{"type":"json_object"},"logprobs":true})",
                   400, "logprobs", "not returned"},
        BadRequest{"AudioOutput",
                   R"({"model":"default:fast",)" + kUser +
                       R"(,"response_format":{"type":"json_object"},"audio":{"voice":"x"}})",
                   400, "audio", "audio"},
        BadRequest{"PromptOverTheLimit",
                   R"({"model":"default:fast","messages":[{"role":"user","content":")" +
                       std::string(70000, 'x') + R"("}],"response_format":{"type":"json_object"}})",
                   413, "messages", "server.max_prompt_bytes"}),
    [](const ::testing::TestParamInfo<BadRequest>& info) { return info.param.name; });

TEST_F(OpenAiEndpointTest, FiftyMegabyteBodyIs413InTheOpenAiShape) {
  std::string body(50 * 1024 * 1024, ' ');
  HttpReply r = Chat(body);
  EXPECT_EQ(r.status, 413) << r.body;
  Json e = ErrorOf(r);
  ASSERT_TRUE(e.is_object()) << r.body;
  EXPECT_NE(e.find("message")->as_string().find("server.max_body_bytes"), std::string::npos);
  EXPECT_EQ(Http("GET", Url("/healthz")).status, 200);
}

TEST_F(OpenAiEndpointTest, StreamToAClientThatStopsReadingDoesNotPinTheServer) {
  // Ten streamed calls whose client sends the request, never reads, and leaves mid-stream.
  std::vector<int> fds;
  std::string body = ChatBody("CASE-SLOW T-123", R"(,"stream":true)");
  for (int i = 0; i < 10; ++i) {
    int fd = http::testing::Connect(static_cast<uint16_t>(serve_->port()));
    int small = 1024;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    std::string req =
        "POST /v1/chat/completions HTTP/1.1\r\nHost: h\r\n" + kAcmeKey +
        "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
        "\r\n\r\n" + body;
    ASSERT_EQ(send(fd, req.data(), req.size(), MSG_NOSIGNAL), static_cast<ssize_t>(req.size()));
    fds.push_back(fd);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // streams are under way
  for (int fd : fds) close(fd);
  // Every call ends (the gauge returns to 0) and the server answers others all along.
  HttpReply ok = Chat(ChatBody("CASE-REASK T-123"));
  EXPECT_EQ(ok.status, 200) << ok.body;
  std::string gauge;
  for (int i = 0; i < 600; ++i) {
    std::string m = Http("GET", Url("/metrics")).body;
    size_t at = m.find("\nstructure_inflight_calls ");
    gauge = m.substr(at + 1, m.find('\n', at + 1) - at - 1);
    if (gauge == "structure_inflight_calls 0") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(gauge, "structure_inflight_calls 0");
}

}  // namespace
}  // namespace structure::testing
