#include "base/error_codes.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace structure {
namespace {

constexpr int kCodes = static_cast<int>(ErrorCode::kCount);

TEST(ErrorCodesTest, EveryCodeHasOneRowWithItsName) {
  std::set<std::string_view> names;
  for (int i = 0; i < kCodes; ++i) {
    auto code = static_cast<ErrorCode>(i);
    const ErrorCodeFacts* f = FindErrorCodeFacts(code);
    ASSERT_NE(f, nullptr) << "error code " << i << " has no row in base/error_codes.cc";
    EXPECT_EQ(f->code, code) << f->name;
    EXPECT_EQ(ErrorCodeName(code), f->name);
    EXPECT_EQ(ErrorCodeFromName(f->name), code) << f->name;
    EXPECT_TRUE(names.insert(f->name).second) << "two codes named " << f->name;
  }
}

TEST(ErrorCodesTest, EveryRowIsComplete) {
  const std::set<std::string_view> openai_types = {"invalid_request_error", "rate_limit_error",
                                                   "server_error", "service_unavailable_error",
                                                   "insufficient_quota"};
  for (int i = 0; i < kCodes; ++i) {
    const ErrorCodeFacts& f = ErrorCodeFactsOf(static_cast<ErrorCode>(i));
    EXPECT_GE(f.http_status, 400) << f.name;
    EXPECT_LE(f.http_status, 599) << f.name;
    EXPECT_NE(f.exit_code, 0) << f.name;
    EXPECT_TRUE(openai_types.count(f.openai_type)) << f.name << ": " << f.openai_type;
    EXPECT_FALSE(f.openai_code.empty()) << f.name;
    // The caller's fault (4xx) is an invalid request, but for the rate limit, which has a type of
    // its own.
    if (f.code == ErrorCode::kProviderQuotaExhausted) {
      // OpenAI's own body for a spent quota, at a status the SDKs do not retry.
      EXPECT_EQ(f.openai_type, "insufficient_quota");
      EXPECT_EQ(f.http_status, 403);
    } else if (f.http_status == 429) {
      EXPECT_EQ(f.openai_type, "rate_limit_error") << f.name;
    } else {
      EXPECT_EQ(f.openai_type == "invalid_request_error", f.http_status < 500) << f.name;
    }
  }
}

TEST(ErrorCodesTest, NamesAreTheWireStrings) {
  EXPECT_EQ(ErrorCodeName(ErrorCode::kBadRequest), "bad_request");
  EXPECT_EQ(ErrorCodeName(ErrorCode::kProviderRejectedRequest), "provider_rejected_request");
  EXPECT_EQ(ErrorCodeName(ErrorCode::kOutputCapExhausted), "output_cap_exhausted");
  EXPECT_EQ(ErrorCodeName(ErrorCode::kSchemaTooLarge), "schema_too_large");
  EXPECT_EQ(ErrorCodeName(ErrorCode::kBatchRequestTooLarge), "batch_request_too_large");
}

TEST(ErrorCodesTest, UnknownNamesAndTheSentinelHaveNoCode) {
  EXPECT_EQ(ErrorCodeFromName("no_such_code"), std::nullopt);
  EXPECT_EQ(ErrorCodeFromName(""), std::nullopt);
  EXPECT_EQ(ErrorCodeFromName("Cancelled"), std::nullopt);
  EXPECT_EQ(FindErrorCodeFacts(ErrorCode::kCount), nullptr);
  EXPECT_EQ(ErrorCodeName(ErrorCode::kCount), "");
  EXPECT_EQ(ErrorCodeFactsOf(ErrorCode::kCount).code, ErrorCode::kInternal);
}

TEST(ErrorCodesTest, CodesTheCallerCannotFixAreNotClientErrors) {
  EXPECT_EQ(ErrorCodeFactsOf(ErrorCode::kBadConfig).http_status, 500);
  EXPECT_EQ(ErrorCodeFactsOf(ErrorCode::kCheckFailed).http_status, 502);
  EXPECT_EQ(ErrorCodeFactsOf(ErrorCode::kOutputCapExhausted).http_status, 422);
  EXPECT_EQ(ErrorCodeFactsOf(ErrorCode::kProviderRateLimited).http_status, 429);
  EXPECT_EQ(ErrorCodeFactsOf(ErrorCode::kProviderRateLimited).openai_code, "rate_limit_exceeded");
}

}  // namespace
}  // namespace structure
