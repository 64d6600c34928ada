// Values checked against their quotes, and whole answers checked against the prompt.
#include "pipeline/evidence/check.h"

#include <gtest/gtest.h>

#include "pipeline/evidence/normalize.h"
#include "pipeline/evidence/number_match.h"

namespace structure::pipeline::evidence {
namespace {

Json Parse(std::string_view text) {
  auto j = ParseJson(text);
  EXPECT_TRUE(j.ok()) << text;
  return j.ok() ? *j : Json();
}

bool States(std::string_view quote, double v) {
  return QuoteStatesNumber(NormalizeString(quote), v);
}

TEST(NumberMatch, DigitsWithCommonSeparators) {
  EXPECT_TRUE(States("Total: 1,234.50 USD", 1234.5));
  EXPECT_TRUE(States("Summe: 1.234,50 €", 1234.5));
  EXPECT_TRUE(States("Einwohner: 1 234 567", 1234567));
  EXPECT_TRUE(States("Preis CHF 1'250.00", 1250));
  EXPECT_TRUE(States("a discount of 15%", 0.15));
  EXPECT_TRUE(States("raised 2.5 million", 2500000));
  EXPECT_TRUE(States("twelve people", 12));
  EXPECT_TRUE(States("Menge: １２３", 123));  // full-width digits fold under NFKC
  EXPECT_FALSE(States("Total: 1,234.50 USD", 1243.5));
  EXPECT_FALSE(States("no number here", 7));
}

TEST(NumberMatch, EveryUnicodeDecimalDigitReads) {
  EXPECT_TRUE(States("العمر: ٣٤ سنة", 34));  // Arabic-Indic
  EXPECT_TRUE(States("السعر ١٢٫٥٠", 12.5));  // with the Arabic decimal separator
  EXPECT_TRUE(States("١٬٢٣٤ ريال", 1234));   // and thousands separator
  EXPECT_TRUE(States("خصم ١٥٪", 0.15));      // and percent sign
  EXPECT_TRUE(States("۴۲ تومان", 42));       // Extended Arabic-Indic (Persian)
  EXPECT_TRUE(States("आयु: ३४ वर्ष", 34));     // Devanagari
  EXPECT_TRUE(States("বয়স ৩৪", 34));         // Bengali
  EXPECT_TRUE(States("年齢：３４歳", 34));   // full-width
  EXPECT_FALSE(States("العمر: ٣٤ سنة", 43));
  EXPECT_FALSE(States("आयु: ३४ वर्ष", 3));
}

TEST(CheckEvidence, AValueQuotedInAnotherScriptsDigitsIsGrounded) {
  Json schema = Parse(R"({"type":"object","properties":{"age":{"type":"integer"},
    "code":{"type":"string"}}})");
  struct Case {
    const char* prompt;
    const char* age;  // 34 as the prompt writes it
  };
  for (const Case& c :
       {Case{"Name: Ali, age ٣٤, code ٧٧١", "٣٤"}, Case{"नाम: अली, आयु ३४, कोड ७७१", "३४"},
        Case{"名前：アリ、年齢３４、コード７７１", "３４"}}) {
    SCOPED_TRACE(c.prompt);
    std::string prompt = c.prompt;
    Json data = Parse(R"({"age":34,"code":"771"})");
    // The model quotes the passage as written, or with ASCII digits: both are the text's.
    for (const char* quote : {c.age, "34"}) {
      std::vector<Claim> claims = {{"/age", quote}, {"/code", "771"}};
      EvidenceReport r = CheckEvidence(data, schema, prompt, claims);
      EXPECT_TRUE(r.ungrounded.empty()) << ReasonLine(r.ungrounded[0]);
      ASSERT_EQ(r.grounded.size(), 2u);
      EXPECT_EQ(r.grounded[0].pointer, "/age");
      // The span is the digits' place in the original text.
      const Span& at = r.grounded[0].span;
      EXPECT_EQ(prompt.substr(at.byte_begin, at.byte_end - at.byte_begin), c.age);
    }
  }
}

TEST(NumberMatch, LongDigitChainsAreReadInLinearTime) {
  std::string chain;
  for (int i = 0; i < 20000; ++i) chain += "1.";
  chain += "7";
  EXPECT_TRUE(States(chain, 1.7));
  EXPECT_FALSE(States(chain, 8));
}

// The input's context date is 2026-05-06 ("Wednesday, 6 May 2026" in the header).
constexpr std::string_view kMail =
    "Date: Wednesday, 6 May 2026\nHi team, the deploy broke the build today at 2:30 PM. "
    "Owner: Jürgen Müller.";

Json DateSchema() {
  return Parse(R"({"type":"object","properties":{"when":{"type":"string","format":"date-time"},
    "owner":{"type":"string"},"severity":{"enum":["low","high"]}}})");
}

TEST(CheckEvidence, RelativeDateAcceptedWhenTheInputNamesItsDate) {
  Json data = Parse(R"({"when":"2026-05-06T14:30:00","owner":"Jürgen Müller","severity":"high"})");
  std::vector<Claim> claims = {
      {"/when", "today at 2:30 PM"}, {"/owner", "Jürgen Müller"}, {"/severity", "broke the build"}};
  EvidenceReport r = CheckEvidence(data, DateSchema(), kMail, claims);
  EXPECT_TRUE(r.ungrounded.empty()) << (r.ungrounded.empty() ? "" : ReasonLine(r.ungrounded[0]));
  ASSERT_EQ(r.grounded.size(), 3u);
  EXPECT_EQ(r.grounded[0].pointer, "/when");
  EXPECT_EQ(r.grounded[0].kind, LeafKind::kDateTime);
  EXPECT_EQ(r.grounded[2].kind, LeafKind::kClassification);
}

TEST(CheckEvidence, RelativeDateWrongDayOrWithoutContextIsUngrounded) {
  Json data = Parse(R"({"when":"2026-05-07T14:30:00"})");
  std::vector<Claim> claims = {{"/when", "today at 2:30 PM"}};
  EvidenceReport wrong_day = CheckEvidence(data, DateSchema(), kMail, claims);
  ASSERT_EQ(wrong_day.ungrounded.size(), 1u);
  EXPECT_EQ(wrong_day.ungrounded[0].why, "which does not state this date");

  Json today = Parse(R"({"when":"2026-05-06T14:30:00"})");
  EvidenceReport no_anchor =
      CheckEvidence(today, DateSchema(), "the deploy broke the build today at 2:30 PM", claims);
  ASSERT_EQ(no_anchor.ungrounded.size(), 1u);
  EXPECT_EQ(no_anchor.ungrounded[0].why,
            "a relative date, but the input names no date it is relative to");

  Json wrong_time = Parse(R"({"when":"2026-05-06T15:30:00"})");
  EvidenceReport t = CheckEvidence(wrong_time, DateSchema(), kMail, claims);
  ASSERT_EQ(t.ungrounded.size(), 1u);
  EXPECT_EQ(t.ungrounded[0].why, "which does not state this time");
}

TEST(CheckEvidence, InventedValueAndInventedQuoteGiveTheIssuesReasonLines) {
  Json data = Parse(R"({"when":"2026-05-06T09:30","owner":"Anna Schmidt"})");
  std::vector<Claim> claims = {{"/when", "yesterday"}, {"/owner", "Owner: Jürgen Müller"}};
  EvidenceReport r = CheckEvidence(data, DateSchema(), kMail, claims);
  ASSERT_EQ(r.ungrounded.size(), 2u);
  EXPECT_EQ(ReasonLine(r.ungrounded[0]),
            "- /when: \"2026-05-06T09:30\" is not supported by the input (quoted \"yesterday\", "
            "not found in the text)");
  EXPECT_EQ(ReasonLine(r.ungrounded[1]),
            "- /owner: \"Anna Schmidt\" is not supported by the input (quoted \"Owner: Jürgen "
            "Müller\", which does not contain it)");
  EXPECT_TRUE(r.grounded.empty());
}

TEST(CheckEvidence, NullsAndEmptyStringsAreNoClaims) {
  Json data = Parse(R"({"owner":"","when":null})");
  EvidenceReport r = CheckEvidence(data, DateSchema(), kMail, {});
  EXPECT_TRUE(r.ungrounded.empty());
  EXPECT_TRUE(r.grounded.empty());
}

TEST(CheckEvidence, LeafWithoutClaimIsUngrounded) {
  Json data = Parse(R"({"owner":"Jürgen Müller"})");
  EvidenceReport r = CheckEvidence(data, DateSchema(), kMail, {});
  ASSERT_EQ(r.ungrounded.size(), 1u);
  EXPECT_EQ(ReasonLine(r.ungrounded[0]),
            "- /owner: \"Jürgen Müller\" is not supported by the input (no quote was given)");
}

TEST(CheckEvidence, ArraysOfObjectsUseIndexedPointers) {
  Json schema = Parse(R"({"type":"object","properties":{"items":{"type":"array","items":{
    "type":"object","properties":{"name":{"type":"string"},"qty":{"type":"integer"},
    "price":{"type":"number"}}}}}})");
  std::string prompt = "Bestellung: 3 × Äpfel à 1,20 €; 12 Stück 寿司 für 2.400 ¥ 🍣";
  Json data = Parse(R"({"items":[{"name":"Äpfel","qty":3,"price":1.2},
                                 {"name":"寿司","qty":12,"price":2400}]})");
  std::vector<Claim> claims = {{"/items/0/name", "Äpfel"},   {"/items/0/qty", "3 × Äpfel"},
                               {"/items/0/price", "1,20 €"}, {"/items/1/name", "寿司"},
                               {"/items/1/qty", "12 Stück"}, {"/items/1/price", "2.400 ¥"}};
  EvidenceReport r = CheckEvidence(data, schema, prompt, claims);
  EXPECT_TRUE(r.ungrounded.empty()) << (r.ungrounded.empty() ? "" : ReasonLine(r.ungrounded[0]));
  ASSERT_EQ(r.grounded.size(), 6u);
  EXPECT_EQ(r.grounded[3].pointer, "/items/1/name");
  // "Bestellung: 3 × Äpfel à 1,20 €; 12 Stück " is 41 code points; ×, Ä, à, ü are 2 bytes and € 3.
  EXPECT_EQ(r.grounded[3].span.cp_begin, 41u);
  EXPECT_EQ(r.grounded[3].span.byte_begin, 41u + 4u + 2u);

  Json wrong = Parse(R"({"items":[{"name":"Äpfel","qty":4}]})");
  EvidenceReport w = CheckEvidence(wrong, schema, prompt,
                                   {{"/items/0/name", "Äpfel"}, {"/items/0/qty", "3 × Äpfel"}});
  ASSERT_EQ(w.ungrounded.size(), 1u);
  EXPECT_EQ(w.ungrounded[0].pointer, "/items/0/qty");
  EXPECT_EQ(w.ungrounded[0].why, "which does not contain this number");
}

TEST(CheckEvidence, ResultJsonCarriesOffsetsAndUngroundedPointers) {
  Json data = Parse(R"({"owner":"Jürgen Müller","when":"2026-05-08"})");
  EvidenceReport r =
      CheckEvidence(data, DateSchema(), kMail, {{"/owner", "jürgen müller"}, {"/when", "today"}});
  Json ev = EvidenceJson(r);
  const Json* owner = ev.find("/owner");
  ASSERT_NE(owner, nullptr);
  EXPECT_EQ(owner->find("match")->as_string(), "normalized");
  EXPECT_EQ(owner->find("quote")->as_string(), "jürgen müller");
  std::string_view prompt = kMail;
  size_t b = static_cast<size_t>(owner->find("byteStart")->as_int());
  size_t e = static_cast<size_t>(owner->find("byteEnd")->as_int());
  EXPECT_EQ(prompt.substr(b, e - b), "Jürgen Müller");
  EXPECT_EQ(ToJson(UngroundedJson(r)), R"(["/when"])");
}

TEST(ReadClaims, SkipsEntriesThatAreNotPathQuotePairs) {
  auto claims = ReadClaims(Parse(R"([{"path":"/a","quote":"x"},{"path":1},"junk",{"quote":"y"}])"));
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0].path, "/a");
  EXPECT_TRUE(ReadClaims(Parse("{}")).empty());
}

}  // namespace
}  // namespace structure::pipeline::evidence
