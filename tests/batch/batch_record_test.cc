#include "batch/batch_record.h"

#include <gtest/gtest.h>

#include "pipeline/validator/validator.h"
#include "tests/support/ticket_schema.h"

namespace structure::batch {
namespace {

BatchRecord Record() {
  auto plan = std::make_shared<pipeline::LoopPlan>();
  plan->original_schema = *ParseJson(testing::kTicketSchemaText);
  plan->provider_schema = plan->original_schema;
  auto v = pipeline::CompileSchema(plan->original_schema);
  EXPECT_TRUE(v.ok());
  plan->validator = *v;
  BatchRecord r;
  r.line_no = 7;
  r.prepared.spec.plan = plan;
  r.prepared.spec.prompt = "Mike broke the build";
  r.prepared.spec.model = "m";
  r.prepared.spec.max_loops = 2;
  r.prepared.schema_origin = "inline";
  r.prepared.schema_usage.input_tokens = 100;
  return r;
}

providers::ItemResult Reply(const std::string& content) {
  providers::ItemResult item;
  providers::ProviderReply reply;
  reply.content = content;
  reply.usage.input_tokens = 10;
  reply.usage.output_tokens = 5;
  item.reply = reply;
  return item;
}

providers::ItemResult Transient(std::string code = "") {
  providers::ItemResult item;
  item.reply = Status(Code::kUnavailable, "HTTP 500 from openai: oops");
  item.transient = true;
  item.code = std::move(code);
  return item;
}

TEST(BatchRecordTest, CustomIdsNameLineAndRound) {
  EXPECT_EQ(CustomId(17, 2), "l17-r2");
  uint64_t line = 0;
  int round = 0;
  ASSERT_TRUE(ParseCustomId("l17-r2", &line, &round));
  EXPECT_EQ(line, 17u);
  EXPECT_EQ(round, 2);
  for (const char* bad : {"", "l17", "x17-r2", "l-r2", "l17-r", "l17-r0", "l17-r2x", "l1 7-r2"}) {
    EXPECT_FALSE(ParseCustomId(bad, &line, &round)) << bad;
  }
}

TEST(BatchRecordTest, ReasksInTheNextRoundAndEndsAsTheLoopDecides) {
  BatchRecord r = Record();
  StartRecord(r);
  ASSERT_TRUE(r.call);
  EXPECT_EQ(r.round, 1);
  ApplyItem(r, Reply(R"({"name":"Mike","priority":7})"), 3);
  ASSERT_TRUE(r.call);  // the re-ask
  EXPECT_EQ(r.round, 2);
  EXPECT_NE(r.call->turns.back().text.find("/priority"), std::string::npos);
  ApplyItem(r, Reply(R"({"name":"Mike","priority":5})"), 3);
  ASSERT_TRUE(r.result);
  EXPECT_FALSE(r.call);
  EXPECT_EQ(r.result->status, pipeline::Outcome::kOk);
  EXPECT_EQ(r.result->iterations, 2);
  EXPECT_EQ(r.result->schema_origin, "inline");
  EXPECT_EQ(r.result->usage.input_tokens, 120);  // two calls plus the schema stage
}

TEST(BatchRecordTest, ResendsTheSameCallAfterATransientErrorUpToTheRetries) {
  BatchRecord r = Record();
  StartRecord(r);
  std::string first = r.call->turns.front().text;
  ApplyItem(r, Transient(), 1);
  ASSERT_TRUE(r.call);
  EXPECT_EQ(r.round, 2);
  EXPECT_EQ(r.tries, 1);
  EXPECT_EQ(r.call->turns.size(), 1u);
  ApplyItem(r, Transient("batch_expired"), 1);
  ASSERT_TRUE(r.result);
  EXPECT_EQ(r.result->status, pipeline::Outcome::kError);
  EXPECT_EQ(r.result->error_code, "batch_expired");
  EXPECT_EQ(r.result->iterations, 0);
}

TEST(BatchRecordTest, AProviderErrorEndsTheRecordAsTheLivePathWould) {
  BatchRecord r = Record();
  StartRecord(r);
  providers::ItemResult item;
  item.reply = Status(Code::kInvalidArgument, "HTTP 400 from openai: Invalid schema");
  ApplyItem(r, item, 3);
  ASSERT_TRUE(r.result);
  EXPECT_EQ(r.result->error_code, "provider_rejected_request");
  ASSERT_EQ(r.result->errors.size(), 1u);
  EXPECT_NE(r.result->errors[0].find("Invalid schema"), std::string::npos);
}

TEST(BatchRecordTest, EndRecordKeepsUsageSoFar) {
  BatchRecord r = Record();
  StartRecord(r);
  ApplyItem(r, Reply(R"({"name":"Mike","priority":7})"), 3);
  EndRecord(r, "batch_request_too_large", "the request for line 7 is 300 bytes");
  ASSERT_TRUE(r.result);
  EXPECT_EQ(r.result->error_code, "batch_request_too_large");
  EXPECT_EQ(r.result->iterations, 1);
  EXPECT_EQ(r.result->usage.output_tokens, 5);
}

}  // namespace
}  // namespace structure::batch
