#include "server/openai/streamed_answer.h"

#include <gtest/gtest.h>

#include <vector>

namespace structure::server::openai {
namespace {

// Timers the test fires by hand, and the responses the answer gave.
struct Harness {
  std::vector<std::function<void()>> timers;
  std::vector<http::HttpResponse> responses;

  std::shared_ptr<StreamedAnswer> Start(ReplyContext context = {}) {
    auto a = std::make_shared<StreamedAnswer>(
        [this](http::HttpResponse r) { responses.push_back(std::move(r)); }, std::move(context),
        "response_format.json_schema.schema");
    a->Start([this](std::chrono::milliseconds,
                    std::function<void()> fn) { timers.push_back(std::move(fn)); },
             std::chrono::milliseconds(10));
    return a;
  }
  void Fire() {
    auto fn = std::move(timers.back());
    timers.pop_back();
    fn();
  }
};

pipeline::StructureResult Ok() {
  pipeline::StructureResult r;
  r.status = pipeline::Outcome::kOk;
  r.data = *ParseJson(R"({"a":1})");
  return r;
}

TEST(StreamedAnswerTest, QuickResultIsAnsweredWholeAsEvents) {
  Harness h;
  auto a = h.Start();
  a->Finish(Ok());
  ASSERT_EQ(h.responses.size(), 1u);
  EXPECT_EQ(h.responses[0].status, 200);
  EXPECT_EQ(h.responses[0].stream, nullptr);
  EXPECT_NE(h.responses[0].FindHeader("Content-Type")->find("text/event-stream"),
            std::string::npos);
  EXPECT_NE(h.responses[0].body.find("data: [DONE]"), std::string::npos);
  h.Fire();  // a late timer does nothing
  EXPECT_EQ(h.responses.size(), 1u);
}

TEST(StreamedAnswerTest, QuickErrorKeepsItsStatusSoTheSdkCanRetry) {
  Harness h;
  auto a = h.Start();
  a->Finish(pipeline::ErrorResult(ErrorCode::kProviderRateLimited, "429"));
  ASSERT_EQ(h.responses.size(), 1u);
  EXPECT_EQ(h.responses[0].status, 429);
  EXPECT_NE(h.responses[0].FindHeader("Retry-After"), nullptr);
}

TEST(StreamedAnswerTest, SlowCallStartsTheStreamWithKeepAlivesThenTheEvents) {
  Harness h;
  auto a = h.Start();
  h.Fire();
  ASSERT_EQ(h.responses.size(), 1u);
  auto stream = h.responses[0].stream;
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(h.responses[0].body, kKeepAlive);
  h.Fire();  // a second keep-alive goes on the stream
  a->Finish(Ok());
  bool finished = false;
  std::string rest = stream->Take(&finished);
  EXPECT_TRUE(finished);
  EXPECT_EQ(rest.rfind(kKeepAlive, 0), 0u) << rest;
  EXPECT_NE(rest.find("\"content\":\"{\\\"a\\\":1}\""), std::string::npos) << rest;
  EXPECT_NE(rest.find("data: [DONE]"), std::string::npos);
  EXPECT_EQ(h.responses.size(), 1u);
}

TEST(StreamedAnswerTest, ErrorAfterTheStreamStartedIsAnErrorEvent) {
  Harness h;
  auto a = h.Start();
  h.Fire();
  pipeline::StructureResult stale;
  stale.status = pipeline::Outcome::kStale;
  stale.errors = {"/a: must be >= 2"};
  a->Finish(stale);
  bool finished = false;
  std::string rest = h.responses[0].stream->Take(&finished);
  EXPECT_NE(rest.find("\"code\":\"structure_stale\""), std::string::npos) << rest;
}

TEST(StreamedAnswerTest, KeepAlivesStopWhenTheClientIsGone) {
  Harness h;
  auto a = h.Start();
  h.Fire();
  h.responses[0].stream->Close();
  h.Fire();
  EXPECT_TRUE(h.timers.empty());
}

}  // namespace
}  // namespace structure::server::openai
