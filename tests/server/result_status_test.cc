#include <gtest/gtest.h>

#include "pipeline/result.h"
#include "server/api.h"

namespace structure::server {
namespace {

TEST(ResultStatusTest, ResultsThatAreNotErrorsAre200) {
  for (auto o :
       {pipeline::Outcome::kOk, pipeline::Outcome::kNeedMoreInput, pipeline::Outcome::kStale}) {
    pipeline::StructureResult r;
    r.status = o;
    EXPECT_EQ(HttpStatusForResult(r), 200) << pipeline::OutcomeName(o);
  }
}

TEST(ResultStatusTest, ErrorsTakeTheStatusOfTheirCode) {
  auto status = [](ErrorCode code) {
    return HttpStatusForResult(pipeline::ErrorResult(code, "why"));
  };
  EXPECT_EQ(status(ErrorCode::kBadRequest), 400);
  EXPECT_EQ(status(ErrorCode::kBadSchema), 400);
  EXPECT_EQ(status(ErrorCode::kUnknownSchema), 404);
  EXPECT_EQ(status(ErrorCode::kProviderRateLimited), 429);
  EXPECT_EQ(status(ErrorCode::kProviderAuth), 502);
  EXPECT_EQ(status(ErrorCode::kProviderUnavailable), 502);
  EXPECT_EQ(status(ErrorCode::kProviderRejectedRequest), 502);
  EXPECT_EQ(status(ErrorCode::kDeadlineExceeded), 504);
  EXPECT_EQ(status(ErrorCode::kCancelled), 503);
  EXPECT_EQ(status(ErrorCode::kRefusal), 422);
  EXPECT_EQ(status(ErrorCode::kSafetyBlock), 422);
  EXPECT_EQ(status(ErrorCode::kNoFinalAnswer), 422);
  EXPECT_EQ(status(ErrorCode::kInternal), 500);
  // Codes that fell through to 500 when the status was found by the code's text.
  EXPECT_EQ(status(ErrorCode::kOutputCapExhausted), 422);
  EXPECT_EQ(status(ErrorCode::kCheckFailed), 502);
  EXPECT_EQ(status(ErrorCode::kNotFound), 502);
  EXPECT_EQ(status(ErrorCode::kBadConfig), 500);
}

}  // namespace
}  // namespace structure::server
