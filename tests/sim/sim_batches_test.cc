// The simulator's provider batch endpoints over real HTTP: the shapes of OpenAI Files + Batch,
// Anthropic Message Batches and Gemini batch mode, answers equal to the live endpoint's for the
// same body, faults per request and per batch, caps, and the batches.* counters.
#include <gtest/gtest.h>

#include "tests/sim/sim_test_client.h"

namespace structure::sim {
namespace {

using testing::Get;
using testing::Post;
using testing::Send;
using testing::TestJson;

std::string Multipart(const std::string& jsonl, const std::string& purpose = "batch") {
  return "--XyZ\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\n" + purpose +
         "\r\n--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"in.jsonl\"\r\n"
         "Content-Type: application/jsonl\r\n\r\n" +
         jsonl + "\r\n--XyZ--\r\n";
}

std::vector<std::string> UploadHeaders() {
  auto h = testing::OpenAiHeaders();
  h.push_back("Content-Type: multipart/form-data; boundary=XyZ");
  return h;
}

std::string OpenAiLine(const std::string& id, const std::string& body) {
  return "{\"custom_id\":\"" + id +
         "\",\"method\":\"POST\",\"url\":\"/v1/chat/completions\",\"body\":" + body + "}\n";
}

std::string CreateOpenAiBatch(uint16_t port, const std::string& jsonl) {
  auto up = Post(port, "/v1/files", UploadHeaders(), Multipart(jsonl));
  EXPECT_EQ(up.status, 200) << up.body;
  std::string file = up.json.find("id") ? up.json.find("id")->as_string() : "";
  EXPECT_EQ(file.rfind("file-", 0), 0u);
  auto b = Post(port, "/v1/batches", testing::OpenAiHeaders(),
                "{\"input_file_id\":\"" + file +
                    "\",\"endpoint\":\"/v1/chat/"
                    "completions\",\"completion_window\":\"24h\",\"metadata\":{\"k\":\"v\"}}");
  EXPECT_EQ(b.status, 200) << b.body;
  return b.json.find("id") ? b.json.find("id")->as_string() : "";
}

Json Stats(uint16_t port) { return Get(port, "/stats").json; }

testing::HttpReply OpenAiGet(uint16_t port, const std::string& path) {
  return Send(port, "GET", path, testing::OpenAiHeaders(), "");
}

TEST(SimBatchesTest, OpenAiBatchAnswersEachLineAsTheLiveEndpointWould) {
  SimOptions o;
  o.seed = 7;
  auto live_sim = testing::StartSim(o);
  auto batch_sim = testing::StartSim(o);
  std::string body = ToJson(TestJson("openai_json_schema.json"));
  auto live = Post(live_sim->port(), "/v1/chat/completions", testing::OpenAiHeaders(), body);
  ASSERT_EQ(live.status, 200);

  std::string id = CreateOpenAiBatch(batch_sim->port(), OpenAiLine("a-1", body));
  ASSERT_EQ(id.rfind("batch_", 0), 0u);
  auto b = OpenAiGet(batch_sim->port(), "/v1/batches/" + id);
  ASSERT_EQ(b.status, 200) << b.body;
  EXPECT_EQ(b.json.find("status")->as_string(), "completed");
  EXPECT_EQ(b.json.find("metadata")->find("k")->as_string(), "v");
  EXPECT_EQ(b.json.find("request_counts")->find("total")->as_int(), 1);
  std::string out = b.json.find("output_file_id")->as_string();
  auto content = OpenAiGet(batch_sim->port(), "/v1/files/" + out + "/content");
  ASSERT_EQ(content.status, 200);
  auto line = ParseJson(content.body.substr(0, content.body.find('\n')));
  ASSERT_TRUE(line.ok()) << content.body;
  EXPECT_EQ(line->find("custom_id")->as_string(), "a-1");
  const Json& resp = *line->find("response");
  EXPECT_EQ(resp.find("status_code")->as_int(), 200);
  // Same seed, same body bytes: the same answer as the live call.
  EXPECT_EQ(resp.find("body")
                ->find("choices")
                ->as_array()[0]
                .find("message")
                ->find("content")
                ->as_string(),
            live.json.find("choices")->as_array()[0].find("message")->find("content")->as_string());
  Json stats = Stats(batch_sim->port());
  EXPECT_EQ(stats.find("batches")->find("created")->as_int(), 1);
  EXPECT_EQ(stats.find("batches")->find("requests")->as_int(), 1);
  EXPECT_EQ(stats.find("batches")->find("results_downloads")->as_int(), 1);
}

TEST(SimBatchesTest, OpenAiBatchStaysInProgressUntilTheDelayAndCanBeCancelled) {
  SimOptions o;
  o.batch.delay_ms = 600'000;
  auto sim = testing::StartSim(o);
  std::string body = ToJson(TestJson("openai_json_schema.json"));
  std::string id = CreateOpenAiBatch(sim->port(), OpenAiLine("a", body) + OpenAiLine("b", body));
  auto b = OpenAiGet(sim->port(), "/v1/batches/" + id);
  EXPECT_EQ(b.json.find("status")->as_string(), "in_progress");
  EXPECT_TRUE(b.json.find("output_file_id")->is_null());
  auto c = Post(sim->port(), "/v1/batches/" + id + "/cancel", testing::OpenAiHeaders(), "{}");
  ASSERT_EQ(c.status, 200) << c.body;
  EXPECT_EQ(c.json.find("status")->as_string(), "cancelled");
  auto errors =
      OpenAiGet(sim->port(), "/v1/files/" + c.json.find("error_file_id")->as_string() + "/content");
  EXPECT_NE(errors.body.find("\"batch_cancelled\""), std::string::npos) << errors.body;
  auto list = OpenAiGet(sim->port(), "/v1/batches?limit=5");
  ASSERT_EQ(list.json.find("data")->size(), 1u);
}

TEST(SimBatchesTest, OpenAiBatchFaultsPerBatchAndPerRequest) {
  SimOptions o;
  o.batch.faults = {{1, "failed"}, {2, "expired"}};
  o.batch.error_rate = 0;
  auto sim = testing::StartSim(o);
  std::string body = ToJson(TestJson("openai_json_schema.json"));
  std::string failed = CreateOpenAiBatch(sim->port(), OpenAiLine("a", body));
  auto f = OpenAiGet(sim->port(), "/v1/batches/" + failed);
  EXPECT_EQ(f.json.find("status")->as_string(), "failed");
  EXPECT_EQ(f.json.find("errors")->find("data")->size(), 1u);
  std::string expired =
      CreateOpenAiBatch(sim->port(), OpenAiLine("a", body) + OpenAiLine("b", body));
  auto e = OpenAiGet(sim->port(), "/v1/batches/" + expired);
  EXPECT_EQ(e.json.find("status")->as_string(), "expired");
  auto errors =
      OpenAiGet(sim->port(), "/v1/files/" + e.json.find("error_file_id")->as_string() + "/content");
  EXPECT_NE(errors.body.find("\"custom_id\":\"b\""), std::string::npos);
  EXPECT_NE(errors.body.find("batch_expired"), std::string::npos);
}

TEST(SimBatchesTest, OpenAiBatchOverTheCapFailsValidation) {
  SimOptions o;
  o.batch.max_requests = 1;
  auto sim = testing::StartSim(o);
  std::string body = ToJson(TestJson("openai_json_schema.json"));
  std::string id = CreateOpenAiBatch(sim->port(), OpenAiLine("a", body) + OpenAiLine("b", body));
  auto b = OpenAiGet(sim->port(), "/v1/batches/" + id);
  EXPECT_EQ(b.json.find("status")->as_string(), "failed");
  EXPECT_EQ(b.json.find("errors")->find("data")->as_array()[0].find("code")->as_string(),
            "too_many_requests");
  auto bad = Post(sim->port(), "/v1/files", UploadHeaders(), Multipart("{}", "fine-tune"));
  EXPECT_EQ(bad.status, 400);
  auto unauth = Send(sim->port(), "GET", "/v1/batches/" + id, {}, "");
  EXPECT_EQ(unauth.status, 401);
}

TEST(SimBatchesTest, AnthropicMessageBatchEndsWithResultsJsonl) {
  SimOptions o;
  o.batch.faults = {{1, "cancelled"}};
  auto sim = testing::StartSim(o);
  std::string params = ToJson(TestJson("anthropic_output_format.json"));
  auto created = Post(sim->port(), "/v1/messages/batches", testing::AnthropicHeaders(),
                      "{\"requests\":[{\"custom_id\":\"x1\",\"params\":" + params +
                          "},{\"custom_id\":\"x2\",\"params\":" + params + "}]}");
  ASSERT_EQ(created.status, 200) << created.body;
  EXPECT_EQ(created.json.find("type")->as_string(), "message_batch");
  std::string id = created.json.find("id")->as_string();
  ASSERT_EQ(id.rfind("msgbatch_", 0), 0u);
  auto b = Send(sim->port(), "GET", "/v1/messages/batches/" + id, testing::AnthropicHeaders(), "");
  ASSERT_EQ(b.status, 200);
  EXPECT_EQ(b.json.find("processing_status")->as_string(), "ended");
  EXPECT_EQ(b.json.find("request_counts")->find("succeeded")->as_int(), 1);
  EXPECT_EQ(b.json.find("request_counts")->find("canceled")->as_int(), 1);
  std::string url = b.json.find("results_url")->as_string();
  auto results =
      Send(sim->port(), "GET", url.substr(url.find("/v1/")), testing::AnthropicHeaders(), "");
  ASSERT_EQ(results.status, 200);
  EXPECT_NE(
      results.body.find("{\"custom_id\":\"x1\",\"result\":{\"type\":\"succeeded\",\"message\":{"),
      std::string::npos)
      << results.body;
  EXPECT_NE(results.body.find("{\"custom_id\":\"x2\",\"result\":{\"type\":\"canceled\"}}"),
            std::string::npos);
  auto dup = Post(
      sim->port(), "/v1/messages/batches", testing::AnthropicHeaders(),
      "{\"requests\":[{\"custom_id\":\"x\",\"params\":{}},{\"custom_id\":\"x\",\"params\":{}}]}");
  EXPECT_EQ(dup.status, 400);
  EXPECT_EQ(Stats(sim->port()).find("batches")->find("results_downloads")->as_int(), 1);
}

TEST(SimBatchesTest, GeminiBatchOperationHoldsInlinedResponsesWhenDone) {
  SimOptions o;
  o.batch.error_rate = 1.0;  // every request errors: transient INTERNAL
  auto sim = testing::StartSim(o);
  std::string request = ToJson(TestJson("gemini_json_schema.json"));
  auto created = Post(sim->port(), "/v1beta/models/gemini-2.5-flash:batchGenerateContent",
                      testing::GeminiHeaders(),
                      "{\"batch\":{\"displayName\":\"job-1\",\"inputConfig\":{\"requests\":{"
                      "\"requests\":[{\"request\":" +
                          request + ",\"metadata\":{\"key\":\"k1\"}}]}}}}");
  ASSERT_EQ(created.status, 200) << created.body;
  std::string name = created.json.find("name")->as_string();
  ASSERT_EQ(name.rfind("batches/", 0), 0u);
  auto op = Send(sim->port(), "GET", "/v1beta/" + name, testing::GeminiHeaders(), "");
  ASSERT_EQ(op.status, 200) << op.body;
  EXPECT_TRUE(op.json.find("done")->as_bool());
  EXPECT_EQ(op.json.find("metadata")->find("state")->as_string(), "BATCH_STATE_SUCCEEDED");
  const Json& list = *op.json.find("response")->find("inlinedResponses")->find("inlinedResponses");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list.as_array()[0].find("metadata")->find("key")->as_string(), "k1");
  EXPECT_EQ(list.as_array()[0].find("error")->find("code")->as_int(), 13);
  auto listed = Send(sim->port(), "GET", "/v1beta/batches", testing::GeminiHeaders(), "");
  EXPECT_EQ(listed.json.find("operations")->size(), 1u);
}

// --batch-reject-rate and --batch-malformed-rate in each provider's result shape: the
// provider's own 400 for the request, or a 200 whose body is not a reply.
TEST(SimBatchesTest, RejectedAndMalformedRequestsTakeEachProvidersResultShape) {
  for (bool reject : {true, false}) {
    SCOPED_TRACE(reject ? "rejected" : "malformed");
    SimOptions o;
    (reject ? o.batch.reject_rate : o.batch.malformed_rate) = 1.0;
    auto sim = testing::StartSim(o);
    std::string oa = CreateOpenAiBatch(
        sim->port(), OpenAiLine("a", ToJson(TestJson("openai_json_schema.json"))));
    auto b = OpenAiGet(sim->port(), "/v1/batches/" + oa);
    // A non-2xx answer goes to the error file, as OpenAI does.
    const char* file = reject ? "error_file_id" : "output_file_id";
    ASSERT_TRUE(b.json.find(file) && b.json.find(file)->is_string()) << b.body;
    auto out = OpenAiGet(sim->port(), "/v1/files/" + b.json.find(file)->as_string() + "/content");
    EXPECT_NE(out.body.find(reject ? "\"status_code\":400" : "\"status_code\":200"),
              std::string::npos)
        << out.body;
    EXPECT_EQ(out.body.find("\"choices\""), std::string::npos) << out.body;

    std::string params = ToJson(TestJson("anthropic_output_format.json"));
    auto created = Post(sim->port(), "/v1/messages/batches", testing::AnthropicHeaders(),
                        "{\"requests\":[{\"custom_id\":\"x1\",\"params\":" + params + "}]}");
    ASSERT_EQ(created.status, 200) << created.body;
    std::string id = created.json.find("id")->as_string();
    auto results = Send(sim->port(), "GET", "/v1/messages/batches/" + id + "/results",
                        testing::AnthropicHeaders(), "");
    EXPECT_NE(results.body.find(reject ? "\"type\":\"errored\"" : "\"type\":\"succeeded\""),
              std::string::npos)
        << results.body;
    if (reject) {
      EXPECT_NE(results.body.find("invalid_request_error"), std::string::npos) << results.body;
    }
    EXPECT_EQ(results.body.find("\"content\""), std::string::npos) << results.body;

    std::string request = ToJson(TestJson("gemini_json_schema.json"));
    auto op = Post(sim->port(), "/v1beta/models/gemini-2.5-flash:batchGenerateContent",
                   testing::GeminiHeaders(),
                   "{\"batch\":{\"displayName\":\"j\",\"inputConfig\":{\"requests\":{\"requests\":["
                   "{\"request\":" +
                       request + ",\"metadata\":{\"key\":\"k1\"}}]}}}}");
    ASSERT_EQ(op.status, 200) << op.body;
    auto done = Send(sim->port(), "GET", "/v1beta/" + op.json.find("name")->as_string(),
                     testing::GeminiHeaders(), "");
    const Json& entry = done.json.find("response")
                            ->find("inlinedResponses")
                            ->find("inlinedResponses")
                            ->as_array()[0];
    if (reject) {
      ASSERT_NE(entry.find("error"), nullptr) << done.body;
      EXPECT_EQ(entry.find("error")->find("code")->as_int(), 400) << done.body;
    } else {
      ASSERT_NE(entry.find("response"), nullptr) << done.body;
      EXPECT_EQ(entry.find("response")->find("candidates"), nullptr) << done.body;
    }
    Json faults = *Stats(sim->port()).find("faults");
    EXPECT_EQ(faults.find(reject ? "batch_rejected" : "batch_malformed")->as_int(), 3);
  }
}

// Cancelling a running batch in the Anthropic and Gemini shapes ends it at once, every request
// cancelled.
TEST(SimBatchesTest, AnthropicAndGeminiBatchesCanBeCancelledWhileRunning) {
  SimOptions o;
  o.batch.delay_ms = 600'000;
  auto sim = testing::StartSim(o);
  std::string params = ToJson(TestJson("anthropic_output_format.json"));
  auto created = Post(sim->port(), "/v1/messages/batches", testing::AnthropicHeaders(),
                      "{\"requests\":[{\"custom_id\":\"x1\",\"params\":" + params + "}]}");
  ASSERT_EQ(created.status, 200) << created.body;
  EXPECT_EQ(created.json.find("processing_status")->as_string(), "in_progress");
  std::string id = created.json.find("id")->as_string();
  auto c = Post(sim->port(), "/v1/messages/batches/" + id + "/cancel", testing::AnthropicHeaders(),
                "{}");
  ASSERT_EQ(c.status, 200) << c.body;
  EXPECT_EQ(c.json.find("processing_status")->as_string(), "ended");
  EXPECT_EQ(c.json.find("request_counts")->find("canceled")->as_int(), 1);
  auto results = Send(sim->port(), "GET", "/v1/messages/batches/" + id + "/results",
                      testing::AnthropicHeaders(), "");
  EXPECT_NE(results.body.find("{\"custom_id\":\"x1\",\"result\":{\"type\":\"canceled\"}}"),
            std::string::npos)
      << results.body;

  std::string request = ToJson(TestJson("gemini_json_schema.json"));
  auto op = Post(sim->port(), "/v1beta/models/gemini-2.5-flash:batchGenerateContent",
                 testing::GeminiHeaders(),
                 "{\"batch\":{\"displayName\":\"j\",\"inputConfig\":{\"requests\":{\"requests\":[{"
                 "\"request\":" +
                     request + "}]}}}}");
  ASSERT_EQ(op.status, 200) << op.body;
  std::string name = op.json.find("name")->as_string();
  EXPECT_FALSE(op.json.find("done")->as_bool());
  auto cancel = Post(sim->port(), "/v1beta/" + name + ":cancel", testing::GeminiHeaders(), "{}");
  ASSERT_EQ(cancel.status, 200) << cancel.body;
  auto after = Send(sim->port(), "GET", "/v1beta/" + name, testing::GeminiHeaders(), "");
  EXPECT_EQ(after.json.find("metadata")->find("state")->as_string(), "BATCH_STATE_CANCELLED")
      << after.body;
  const Json& entry = after.json.find("response")
                          ->find("inlinedResponses")
                          ->find("inlinedResponses")
                          ->as_array()[0];
  EXPECT_EQ(entry.find("error")->find("code")->as_int(), 1) << after.body;
}

// The caps in the Anthropic and Gemini shapes: a create request over them is refused with a 400
// (or Anthropic's 413 for bytes), and no batch is made.
TEST(SimBatchesTest, AnthropicAndGeminiCreatesOverTheCapAreRefused) {
  SimOptions o;
  o.batch.max_requests = 1;
  auto sim = testing::StartSim(o);
  std::string params = ToJson(TestJson("anthropic_output_format.json"));
  auto two = Post(sim->port(), "/v1/messages/batches", testing::AnthropicHeaders(),
                  "{\"requests\":[{\"custom_id\":\"x1\",\"params\":" + params +
                      "},{\"custom_id\":\"x2\",\"params\":" + params + "}]}");
  EXPECT_EQ(two.status, 400) << two.body;
  EXPECT_NE(two.body.find("at most 1 requests per batch"), std::string::npos) << two.body;
  std::string request = ToJson(TestJson("gemini_json_schema.json"));
  auto g = Post(sim->port(), "/v1beta/models/gemini-2.5-flash:batchGenerateContent",
                testing::GeminiHeaders(),
                "{\"batch\":{\"inputConfig\":{\"requests\":{\"requests\":[{\"request\":" + request +
                    "},{\"request\":" + request + "}]}}}}");
  EXPECT_EQ(g.status, 400) << g.body;
  EXPECT_NE(g.body.find("at most 1 inline requests"), std::string::npos) << g.body;
  SimOptions small;
  small.batch.max_bytes = 100;
  auto tight = testing::StartSim(small);
  auto big = Post(tight->port(), "/v1/messages/batches", testing::AnthropicHeaders(),
                  "{\"requests\":[{\"custom_id\":\"x1\",\"params\":" + params + "}]}");
  EXPECT_EQ(big.status, 413) << big.body;
  EXPECT_EQ(Stats(sim->port()).find("batches")->find("created")->as_int(), 0);
  EXPECT_EQ(Stats(tight->port()).find("batches")->find("created")->as_int(), 0);
}

}  // namespace
}  // namespace structure::sim
