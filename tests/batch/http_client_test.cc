// The provider batch runner's control calls: 429s wait for Retry-After (capped), transient
// failures back off, other answers return at once, Ctrl-C gives up; poll intervals grow.
#include "batch/http_client.h"

#include <gtest/gtest.h>

#include <deque>
#include <vector>

namespace structure::batch {
namespace {

using std::chrono::milliseconds;

providers::HttpResponse Answer(int status, const char* retry_after = nullptr) {
  providers::HttpResponse r;
  r.status = status;
  if (retry_after != nullptr) r.headers.push_back({"retry-after", retry_after});
  return r;
}

providers::HttpResponse Reset() {
  providers::HttpResponse r;
  r.error = providers::TransportError::kReset;
  return r;
}

// Answers in order; every wait is recorded.
struct Script {
  explicit Script(std::deque<providers::HttpResponse> a) : answers(std::move(a)) {}

  std::deque<providers::HttpResponse> answers;
  std::vector<milliseconds> waits;
  int sent = 0;
  bool interrupted = false;

  SendFn Send() {
    return [this](const providers::HttpRequest&) {
      ++sent;
      providers::HttpResponse r = answers.front();
      if (answers.size() > 1) answers.pop_front();
      return r;
    };
  }
  SleepFn Sleep() {
    return [this](milliseconds d) {
      waits.push_back(d);
      return !interrupted;
    };
  }
};

TEST(HttpClientTest, A429WaitsForItsRetryAfterThenSendsAgain) {
  Script s({Answer(429, "7"), Answer(200)});
  auto r = SendWithRetries(s.Send(), s.Sleep(), {});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(s.sent, 2);
  EXPECT_EQ(s.waits, std::vector<milliseconds>{milliseconds(7000)});
}

TEST(HttpClientTest, ARetryAfterBeyondTheCapIsCapped) {
  Script s({Answer(429, "86400"), Answer(200)});
  RetryPolicy policy;
  auto r = SendWithRetries(s.Send(), s.Sleep(), {}, policy);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(s.waits, std::vector<milliseconds>{policy.max_retry_after});
}

TEST(HttpClientTest, A429WithoutAHintAndTransientFailuresBackOffDoubling) {
  Script s({Answer(429), Answer(503), Reset(), Answer(200)});
  auto r = SendWithRetries(s.Send(), s.Sleep(), {});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(s.waits,
            (std::vector<milliseconds>{milliseconds(500), milliseconds(1000), milliseconds(2000)}));
}

TEST(HttpClientTest, AnAnswerThatIsNotTransientReturnsAtOnce) {
  for (int status : {200, 400, 401, 404}) {
    Script s({Answer(status), Answer(200)});
    EXPECT_EQ(SendWithRetries(s.Send(), s.Sleep(), {}).status, status);
    EXPECT_EQ(s.sent, 1) << status;
    EXPECT_TRUE(s.waits.empty()) << status;
  }
}

TEST(HttpClientTest, RetriesEndWithTheLastAnswer) {
  RetryPolicy policy;
  policy.max_retries = 2;
  policy.max_rate_limit_retries = 3;
  Script transient({Answer(500)});
  EXPECT_EQ(SendWithRetries(transient.Send(), transient.Sleep(), {}, policy).status, 500);
  EXPECT_EQ(transient.sent, 3);
  Script limited({Answer(429, "1")});
  EXPECT_EQ(SendWithRetries(limited.Send(), limited.Sleep(), {}, policy).status, 429);
  EXPECT_EQ(limited.sent, 4);
}

TEST(HttpClientTest, AnInterruptedWaitGivesUp) {
  Script s({Answer(429, "30"), Answer(200)});
  s.interrupted = true;
  EXPECT_EQ(SendWithRetries(s.Send(), s.Sleep(), {}).status, 429);
  EXPECT_EQ(s.sent, 1);
}

TEST(HttpClientTest, PollIntervalsGrowByHalfUpToTheMaximum) {
  milliseconds at(5000);
  std::vector<milliseconds> seen;
  for (int i = 0; i < 6; ++i) seen.push_back(at = NextPollInterval(at, milliseconds(20000)));
  EXPECT_EQ(seen, (std::vector<milliseconds>{milliseconds(7500), milliseconds(11250),
                                             milliseconds(16875), milliseconds(20000),
                                             milliseconds(20000), milliseconds(20000)}));
}

}  // namespace
}  // namespace structure::batch
