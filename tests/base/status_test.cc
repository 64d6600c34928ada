#include "structure/status.h"

#include <gtest/gtest.h>

namespace structure {
namespace {

TEST(StatusTest, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.ToString(), "ok");
}

TEST(StatusTest, CarriesCodeAndMessage) {
  Status s = InvalidArgument("bad limit");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Code::kInvalidArgument);
  EXPECT_EQ(s.ToString(), "invalid_argument: bad limit");
}

TEST(StatusTest, RetryMeaningFollowsTheCode) {
  EXPECT_TRUE(Status(Code::kResourceExhausted, "429").retryable());
  EXPECT_TRUE(Status(Code::kUnavailable, "503").retryable());
  EXPECT_TRUE(Status(Code::kDeadlineExceeded, "timeout").retryable());
  EXPECT_FALSE(Status(Code::kUnauthenticated, "401").retryable());
  EXPECT_FALSE(Status(Code::kInvalidArgument, "400").retryable());
  EXPECT_FALSE(Status(Code::kSchemaViolation, "bad").retryable());
}

TEST(ResultTest, HoldsValueOrStatus) {
  Result<int> good = 7;
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 7);
  EXPECT_TRUE(good.status().ok());
  Result<int> bad = NotFound("no such schema");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Code::kNotFound);
}

Status FailsThenStops(bool fail, int& reached) {
  STRUCTURE_RETURN_IF_ERROR(fail ? Internal("boom") : Status::Ok());
  reached = 1;
  return Status::Ok();
}

TEST(StatusMacroTest, ReturnsEarlyOnError) {
  int reached = 0;
  EXPECT_EQ(FailsThenStops(true, reached).code(), Code::kInternal);
  EXPECT_EQ(reached, 0);
  EXPECT_TRUE(FailsThenStops(false, reached).ok());
  EXPECT_EQ(reached, 1);
}

}  // namespace
}  // namespace structure
