// Evidence over files: quotes located in the prompt and the PDF pages (one text), then placed on
// their page with offsets within the page's own text.
#include "pipeline/loop/file_evidence.h"

#include <gtest/gtest.h>

#include "pipeline/evidence/check.h"

namespace structure::pipeline {
namespace {

PreparedFiles TwoPages() {
  PreparedFiles f;
  f.pages.push_back({"invoice.pdf", 1, "Invoice INV-7\nCustomer: Ada Lovelace\n"});
  f.pages.push_back({"invoice.pdf", 2, "Tot\xC3\xA4l due: 99.50 EUR\n"});  // "Totäl": code points
  return f;
}

const Json kSchema = *ParseJson(R"({"type":"object","properties":{
  "customer":{"type":"string"},"total":{"type":"number"},"note":{"type":"string"}}})");

TEST(FileEvidenceTest, AQuoteOnAPageNamesThePageAndItsOffsetsWithinIt) {
  PreparedFiles files = TwoPages();
  EvidenceText text = MakeEvidenceText("Please read the invoice, note: urgent", files);
  Json data = *ParseJson(R"({"customer":"Ada Lovelace","total":99.5,"note":"urgent"})");
  std::vector<evidence::Claim> claims = {
      {"/customer", "Ada Lovelace"}, {"/total", "99.50 EUR"}, {"/note", "urgent"}};
  evidence::EvidenceReport report = evidence::CheckEvidence(data, kSchema, text.text, claims);
  ASSERT_TRUE(report.ungrounded.empty()) << report.ungrounded[0].why;
  Json ev = evidence::EvidenceJson(report);
  PlaceOnPages(ev, text);
  for (const auto& [pointer, page, quote] :
       {std::tuple{"/customer", 1, "Ada Lovelace"}, std::tuple{"/total", 2, "99.50 EUR"}}) {
    SCOPED_TRACE(pointer);
    const Json& e = *ev.find(pointer);
    EXPECT_EQ(e.find("file")->as_string(), "invoice.pdf");
    EXPECT_EQ(e.find("page")->as_int(), page);
    const std::string& page_text = files.pages[static_cast<size_t>(page - 1)].text;
    auto begin = static_cast<size_t>(e.find("byteStart")->as_int());
    auto end = static_cast<size_t>(e.find("byteEnd")->as_int());
    EXPECT_EQ(page_text.substr(begin, end - begin), quote);
  }
  // Code points within page 2: "Totäl due: " is 11 code points, 12 bytes.
  EXPECT_EQ(ev.find("/total")->find("cpStart")->as_int(), 11);
  EXPECT_EQ(ev.find("/total")->find("byteStart")->as_int(), 12);
  // A quote of the prompt keeps the prompt's offsets and names no page.
  const Json& note = *ev.find("/note");
  EXPECT_EQ(note.find("page"), nullptr);
  EXPECT_EQ(note.find("byteStart")->as_int(), 31);
}

TEST(FileEvidenceTest, AQuoteOnNoPageIsUngrounded) {
  PreparedFiles files = TwoPages();
  EvidenceText text = MakeEvidenceText("", files);
  Json data = *ParseJson(R"({"customer":"Grace Hopper"})");
  auto report = evidence::CheckEvidence(data, kSchema, text.text, {{"/customer", "Grace Hopper"}});
  ASSERT_EQ(report.ungrounded.size(), 1u);
  EXPECT_TRUE(report.ungrounded[0].not_found);
}

TEST(FileEvidenceTest, AnUncheckedQuoteNamesTheImageOrTheScan) {
  PreparedFiles image;
  image.images = {"receipt.png"};
  EXPECT_EQ(ToJson(UncheckedEntry("12.00", image)),
            R"({"quote":"12.00","match":"unchecked","kind":"image","file":"receipt.png"})");
  PreparedFiles scans;
  scans.scans = {"a.pdf", "b.pdf"};
  EXPECT_EQ(ToJson(UncheckedEntry("x", scans)),
            R"({"quote":"x","match":"unchecked","kind":"scan"})");
}

}  // namespace
}  // namespace structure::pipeline
