// The simulator's evidence answers (issue 20): values and quotes from the prompt, and one
// invented value at --ungrounded-rate 1.
#include "sim/grounding.h"

#include <gtest/gtest.h>

#include "pipeline/lowering/drop_note.h"

namespace structure::sim {
namespace {

constexpr const char* kForm = R"({"type":"object","properties":{
  "answer":{"type":"object","properties":{"name":{"type":"string"},
    "priority":{"type":"integer","minimum":1,"maximum":5},"kind":{"enum":["bug","idea"]}},
    "required":["name","priority","kind"],"additionalProperties":false},
  "evidence":{"type":"array","items":{"type":"object","properties":{"path":{"type":"string"},
    "quote":{"type":"string"}},"required":["path","quote"],"additionalProperties":false}}},
  "required":["answer","evidence"],"additionalProperties":false})";

constexpr const char* kPrompt = "Mike broke the build, priority 4 (was 9).";

Json Generated() {
  return *ParseJson(R"({"answer":{"name":"zzqx","priority":2,"kind":"bug"},"evidence":[]})");
}

TEST(GroundingTest, ValuesAndQuotesComeFromThePrompt) {
  Json v = Generated();
  Rng rng(1);
  EXPECT_FALSE(GroundAnswer(v, *ParseJson(kForm), kPrompt, 0, rng));
  const Json& answer = *v.find("answer");
  EXPECT_NE(std::string(kPrompt).find(answer.find("name")->as_string()), std::string::npos);
  EXPECT_EQ(answer.find("priority")->as_int(), 4);     // 9 is out of bounds
  EXPECT_EQ(answer.find("kind")->as_string(), "bug");  // a classification keeps its value
  const Json& evidence = *v.find("evidence");
  ASSERT_EQ(evidence.size(), 3u);
  EXPECT_EQ(evidence.as_array()[0].find("path")->as_string(), "/name");
  EXPECT_EQ(evidence.as_array()[1].find("quote")->as_string(), "4");
  // Every quote is a passage of the prompt, the classification's too (it is not matched to the
  // value, but it must be located).
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_NE(std::string(kPrompt).find(evidence.as_array()[i].find("quote")->as_string()),
              std::string::npos);
  }
}

// Keywords the provider's form could not take are in the description ("checked after
// generation"); the client still checks them, so the grounded values keep them: a word of five
// letters or more for the title, the prompt's e-mail address for the format, its date.
TEST(GroundingTest, KeywordsMovedIntoTheDescriptionStillHold) {
  Json lowered = *ParseJson(R"({"type":"object","properties":{
    "answer":{"type":"object","properties":{
      "title":{"type":"string","description":"A summary."},
      "email":{"type":"string"},
      "due":{"type":"string","format":"date"}},
      "required":["title","email","due"],"additionalProperties":false},
    "evidence":{"type":"array","items":{"type":"object","properties":{"path":{"type":"string"},
      "quote":{"type":"string"}},"required":["path","quote"],"additionalProperties":false}}},
    "required":["answer","evidence"],"additionalProperties":false})");
  // The notes exactly as lowering writes them.
  Json& props = (*lowered.find("properties")->find("answer"))["properties"];
  std::string title = pipeline::WithDropNote("A summary.", "minLength", Json(int64_t{5}));
  props["title"].set("description",
                     Json(pipeline::WithDropNote(title, "maxLength", Json(int64_t{40}))));
  props["email"].set("description", Json(pipeline::WithDropNote("", "format", Json("email"))));
  constexpr const char* kText =
      "Hi, Al here (al@example.org): the export is broken, fix by 2026-05-06 please.";
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Json v =
        *ParseJson(R"({"answer":{"title":"zz","email":"q@q.q","due":"2000-01-01"},"evidence":[]})");
    Rng rng(seed);
    EXPECT_FALSE(GroundAnswer(v, lowered, kText, 0, rng));
    const Json& answer = *v.find("answer");
    std::string got = answer.find("title")->as_string();
    EXPECT_GE(got.size(), 5u) << got;
    EXPECT_LE(got.size(), 40u) << got;
    EXPECT_NE(std::string(kText).find(got), std::string::npos) << got;
    EXPECT_EQ(answer.find("email")->as_string(), "al@example.org");
    EXPECT_EQ(answer.find("due")->as_string(), "2026-05-06");
  }
}

TEST(GroundingTest, RateOneInventsOneQuoteAndOtherAnswersAreUntouched) {
  Json v = Generated();
  Rng rng(2);
  EXPECT_TRUE(GroundAnswer(v, *ParseJson(kForm), kPrompt, 1, rng));
  int missing = 0;
  for (const Json& c : v.find("evidence")->as_array()) {
    missing += std::string(kPrompt).find(c.find("quote")->as_string()) == std::string::npos;
  }
  EXPECT_GE(missing, 1);
  Json plain = *ParseJson(R"({"name":"zzqx"})");
  EXPECT_FALSE(GroundAnswer(plain, *ParseJson(R"({"type":"object"})"), kPrompt, 1, rng));
  EXPECT_EQ(ToJson(plain), R"({"name":"zzqx"})");
}

}  // namespace
}  // namespace structure::sim
