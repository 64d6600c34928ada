#include "pipeline/loop/reason.h"

#include <gtest/gtest.h>

namespace structure::pipeline {
namespace {

TEST(ReasonTest, ListsEveryViolationInTheSeedForm) {
  std::vector<std::string> lines = {
      "/priority: value must be <= 5 (was 7)",
      "/tags/2: value must match pattern \"^[a-z][a-z0-9-]+$\" (was \"Camel-Case\")"};
  EXPECT_EQ(BuildReasonFromLines(lines),
            "The previous output did not conform to the schema:\n"
            "- /priority: value must be <= 5 (was 7)\n"
            "- /tags/2: value must match pattern \"^[a-z][a-z0-9-]+$\" (was \"Camel-Case\")\n"
            "\nPlease correct these and try again. Do not change fields that were valid.");
}

TEST(ReasonTest, CapsLongListsAndSaysHowManyMore) {
  std::vector<std::string> lines(25, "/x: bad");
  std::string r = BuildReasonFromLines(lines, 20);
  EXPECT_NE(r.find("- ... and 5 more\n"), std::string::npos);
}

TEST(ReasonTest, UsesTheValidatorMessages) {
  auto v = CompileSchema(
      *ParseJson(R"({"type":"object","properties":{"priority":{"type":"integer","maximum":5}}})"));
  ASSERT_TRUE(v.ok()) << v.status().message();
  ValidationResult vr = (*v)->Validate(*ParseJson(R"({"priority":7})"));
  ASSERT_FALSE(vr.valid);
  EXPECT_NE(BuildReason(vr.errors).find("- /priority: value must be <= 5 (was 7)\n"),
            std::string::npos)
      << BuildReason(vr.errors);
}

}  // namespace
}  // namespace structure::pipeline
