#include "batch/batch_record.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "pipeline/lowering/profile.h"
#include "pipeline/schema_stage.h"
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

providers::ItemResult Transient(std::optional<ErrorCode> code = std::nullopt) {
  providers::ItemResult item;
  item.reply = Status(Code::kUnavailable, "HTTP 500 from openai: oops");
  item.transient = true;
  item.code = code;
  return item;
}

TEST(BatchRecordTest, CustomIdsNameLineRoundAndSlot) {
  EXPECT_EQ(CustomId(17, 2), "l17-r2");
  EXPECT_EQ(CustomId(17, 2, 3), "l17-r2-s3");
  uint64_t line = 0;
  int round = 0, slot = 7;
  ASSERT_TRUE(ParseCustomId("l17-r2", &line, &round, &slot));
  EXPECT_EQ(line, 17u);
  EXPECT_EQ(round, 2);
  EXPECT_EQ(slot, 0);
  ASSERT_TRUE(ParseCustomId("l17-r2-s3", &line, &round, &slot));
  EXPECT_EQ(slot, 3);
  for (const char* bad : {"", "l17", "x17-r2", "l-r2", "l17-r", "l17-r0", "l17-r2x", "l1 7-r2",
                          "l17-r2-s", "l17-r2-s0", "l17-r2-sx"}) {
    EXPECT_FALSE(ParseCustomId(bad, &line, &round, &slot)) << bad;
  }
}

TEST(BatchRecordTest, ReasksInTheNextRoundAndEndsAsTheLoopDecides) {
  BatchRecord r = Record();
  StartRecord(r);
  ASSERT_EQ(r.calls.size(), 1u);
  EXPECT_EQ(r.calls[0].round, 1);
  ApplyItem(r, 0, Reply(R"({"name":"Mike","priority":7})"), 3);
  ASSERT_EQ(r.calls.size(), 1u);  // the re-ask
  EXPECT_EQ(r.calls[0].round, 2);
  EXPECT_NE(r.calls[0].call.turns.back().text.find("/priority"), std::string::npos);
  ApplyItem(r, 0, Reply(R"({"name":"Mike","priority":5})"), 3);
  ASSERT_TRUE(r.result);
  EXPECT_TRUE(r.calls.empty());
  EXPECT_EQ(r.result->status, pipeline::Outcome::kOk);
  EXPECT_EQ(r.result->iterations, 2);
  EXPECT_EQ(r.result->schema_origin, "inline");
  EXPECT_EQ(r.result->usage.input_tokens, 120);  // two calls plus the schema stage
}

TEST(BatchRecordTest, ResendsTheSameCallAfterATransientErrorUpToTheRetries) {
  BatchRecord r = Record();
  StartRecord(r);
  ApplyItem(r, 0, Transient(), 1);
  ASSERT_EQ(r.calls.size(), 1u);
  EXPECT_EQ(r.calls[0].round, 2);
  EXPECT_EQ(r.calls[0].tries, 1);
  EXPECT_EQ(r.calls[0].call.turns.size(), 1u);
  ApplyItem(r, 0, Transient(ErrorCode::kBatchExpired), 1);
  ASSERT_TRUE(r.result);
  EXPECT_EQ(r.result->status, pipeline::Outcome::kError);
  EXPECT_EQ(r.result->error_code, ErrorCode::kBatchExpired);
  EXPECT_EQ(r.result->iterations, 0);
}

TEST(BatchRecordTest, AProviderErrorEndsTheRecordAsTheLivePathWould) {
  BatchRecord r = Record();
  StartRecord(r);
  providers::ItemResult item;
  item.reply = Status(Code::kInvalidArgument, "HTTP 400 from openai: Invalid schema");
  ApplyItem(r, 0, item, 3);
  ASSERT_TRUE(r.result);
  EXPECT_EQ(r.result->error_code, ErrorCode::kProviderRejectedRequest);
  ASSERT_EQ(r.result->errors.size(), 1u);
  EXPECT_NE(r.result->errors[0].find("Invalid schema"), std::string::npos);
}

TEST(BatchRecordTest, EndRecordKeepsUsageSoFar) {
  BatchRecord r = Record();
  StartRecord(r);
  ApplyItem(r, 0, Reply(R"({"name":"Mike","priority":7})"), 3);
  EndRecord(r, ErrorCode::kBatchRequestTooLarge, "the request for line 7 is 300 bytes");
  ASSERT_TRUE(r.result);
  EXPECT_EQ(r.result->error_code, ErrorCode::kBatchRequestTooLarge);
  EXPECT_EQ(r.result->iterations, 1);
  EXPECT_EQ(r.result->usage.output_tokens, 5);
}

// A record whose schema is asked in parts: 9 string fields, at most 3 per call.
BatchRecord SplitRecord() {
  std::string props;
  for (int i = 0; i < 9; ++i)
    props += (i ? "," : "") + std::string("\"f") + std::to_string(i) + "\":{\"type\":\"string\"}";
  auto resolved = pipeline::ResolveSchema(
      *ParseJson("{\"type\":\"object\",\"properties\":{" + props + "}}"), "inline");
  EXPECT_TRUE(resolved.ok());
  pipeline::Profile profile = *pipeline::FindProfile("openai-strict");
  profile.max_fields_per_call = 3;
  auto plan = pipeline::MakeLoopPlan(*resolved, profile, pipeline::PlanOptions{});
  EXPECT_TRUE(plan.ok());
  BatchRecord r;
  r.line_no = 9;
  r.prepared.spec.plan = *plan;
  r.prepared.spec.prompt = "the text";
  r.prepared.spec.model = "m";
  r.prepared.spec.max_loops = 2;
  r.prepared.schema_origin = "inline";
  return r;
}

// Every field a part's call asks for, set to its own name.
providers::ItemResult PartAnswer(const providers::ProviderCall& call) {
  const Json& s = *call.schema;
  const Json* result = s.find("properties")->find("result")->find("anyOf");
  Json o = Json::MakeObject();
  for (const auto& [k, v] : result->as_array()[0].find("properties")->as_object())
    o.set(k, Json(k));
  return Reply("{\"result\":" + ToJson(o) + ",\"_need\":null}");
}

TEST(BatchRecordTest, ASplitRecordSendsEveryPartInTheSameRoundUnderItsOwnSlotAndMerges) {
  BatchRecord r = SplitRecord();
  StartRecord(r);
  ASSERT_GE(r.calls.size(), 3u);  // at least 9 / 3 parts
  const size_t parts = r.calls.size();
  std::set<std::string> ids;
  for (const RecordCall& c : r.calls) {
    EXPECT_EQ(c.round, 1);
    ids.insert(CustomId(r.line_no, c.round, c.slot));
  }
  EXPECT_EQ(ids.size(), parts);  // one request each, told apart by its custom id
  std::vector<RecordCall> calls = r.calls;
  for (size_t i = 0; i < calls.size(); ++i) {
    EXPECT_FALSE(r.result);
    ApplyItem(r, calls[i].slot, PartAnswer(calls[i].call), 3);
  }
  ASSERT_TRUE(r.result);
  EXPECT_TRUE(r.calls.empty());
  EXPECT_EQ(r.result->status, pipeline::Outcome::kOk);
  EXPECT_EQ(r.result->mode, "split");
  EXPECT_EQ(r.result->parts, static_cast<int>(parts));
  EXPECT_EQ(r.result->usage.input_tokens, static_cast<int64_t>(10 * parts));  // every part's
  for (int i = 0; i < 9; ++i) {
    std::string f = "f" + std::to_string(i);
    ASSERT_NE(r.result->data.find(f), nullptr) << f;
    EXPECT_EQ(r.result->data.find(f)->as_string(), f);
  }
}

TEST(BatchRecordTest, ATransientErrorOfOnePartResendsOnlyThatPartNextRound) {
  BatchRecord r = SplitRecord();
  StartRecord(r);
  ASSERT_GE(r.calls.size(), 3u);
  std::vector<RecordCall> calls = r.calls;
  for (size_t i = 0; i < calls.size(); ++i)
    ApplyItem(r, calls[i].slot, i == 1 ? Transient() : PartAnswer(calls[i].call), 3);
  ASSERT_FALSE(r.result);
  ASSERT_EQ(r.calls.size(), 1u);
  EXPECT_EQ(r.calls[0].slot, calls[1].slot);
  EXPECT_EQ(r.calls[0].round, 2);
  ApplyItem(r, calls[1].slot, PartAnswer(calls[1].call), 3);
  ASSERT_TRUE(r.result);
  EXPECT_EQ(r.result->status, pipeline::Outcome::kOk);
  EXPECT_EQ(r.result->parts, static_cast<int>(calls.size()));
}

}  // namespace
}  // namespace structure::batch
