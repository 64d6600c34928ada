#include "pipeline/input/merge.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "base/json.h"
#include "pipeline/input/split.h"

namespace structure::pipeline {
namespace {

Json J(std::string_view text) { return *ParseJson(text); }

TEST(InputMergeTest, ArraysConcatenateAndTheSeamIsKeptOnce) {
  // Parts 1 and 2 both read records b and c from their overlap; d is stated again later (a
  // real repeat, not at a seam) and stays twice.
  std::vector<PartAnswer> parts = {
      {J(R"({"items": ["a", "b", "c"]})"), Json()},
      {J(R"({"items": ["b", "c", "d"]})"), Json()},
      {J(R"({"items": ["e", "d"]})"), Json()},
  };
  MergedAnswer m = MergeParts(parts);
  EXPECT_EQ(ToJson(m.data), R"({"items":["a","b","c","d","e","d"]})");
  EXPECT_EQ(m.overlap_duplicates, 2u);
  EXPECT_TRUE(m.conflicts.empty());
}

TEST(InputMergeTest, ScalarsAgreeOrConflictAndNullNeverOverwrites) {
  std::vector<PartAnswer> parts = {
      {J(R"({"number": "INV-1", "currency": "EUR", "note": null, "buyer": {"name": "Ada"}})"),
       Json()},
      {J(R"({"number": null, "buyer": {"city": "Oslo"}})"), Json()},
      {J(R"({"number": "INV-1", "currency": "USD", "note": "paid"})"), Json()},
  };
  MergedAnswer m = MergeParts(parts);
  EXPECT_EQ(
      ToJson(m.data),
      R"({"number":"INV-1","currency":"EUR","note":"paid","buyer":{"name":"Ada","city":"Oslo"}})");
  ASSERT_EQ(m.conflicts.size(), 1u);
  EXPECT_EQ(ToJson(ConflictsToJson(m.conflicts)),
            R"([{"pointer":"/currency","values":["EUR","USD"],"parts":[[1],[3]]}])");
}

TEST(InputMergeTest, TheValueWithEvidenceWinsAConflictAndEvidenceFollowsThePointers) {
  std::vector<PartAnswer> parts = {
      {J(R"({"total": 10, "items": [{"sku": "A"}]})"),
       J(R"({"/items/0/sku": {"byteStart": 5, "byteEnd": 6}})")},
      {J(R"({"total": 12, "items": [{"sku": "A"}, {"sku": "B"}]})"),
       J(R"({"/total": {"byteStart": 90, "byteEnd": 92}, "/items/0/sku": {"byteStart": 5,
            "byteEnd": 6}, "/items/1/sku": {"byteStart": 40, "byteEnd": 41}})")},
  };
  MergedAnswer m = MergeParts(parts);
  EXPECT_EQ(ToJson(m.data), R"({"total":12,"items":[{"sku":"A"},{"sku":"B"}]})");
  ASSERT_EQ(m.conflicts.size(), 1u);
  EXPECT_EQ(m.conflicts[0].pointer, "/total");
  EXPECT_EQ(
      ToJson(m.evidence),
      R"({"/total":{"byteStart":90,"byteEnd":92},"/items/0/sku":{"byteStart":5,"byteEnd":6},"/items/1/sku":{"byteStart":40,"byteEnd":41}})");
}

TEST(InputMergeTest, WithEvidenceEqualRecordsInDifferentPlacesStayApart) {
  // The same line twice in a row, both in the overlap: the spans tell them apart.
  std::vector<PartAnswer> parts = {
      {J(R"(["x", "x"])"), J(R"({"/0": {"byteStart": 0, "byteEnd": 2}, "/1": {"byteStart": 2,
                                  "byteEnd": 4}})")},
      {J(R"(["x", "x", "x"])"), J(R"({"/0": {"byteStart": 0, "byteEnd": 2}, "/1": {"byteStart":
                                  2, "byteEnd": 4}, "/2": {"byteStart": 4, "byteEnd": 6}})")},
  };
  MergedAnswer m = MergeParts(parts);
  EXPECT_EQ(ToJson(m.data), R"(["x","x","x"])");
  EXPECT_EQ(m.overlap_duplicates, 2u);
}

TEST(InputMergeTest, NothingStatedIsNull) {
  MergedAnswer m = MergeParts({{Json(), Json()}, {Json(), Json()}});
  EXPECT_TRUE(m.data.is_null());
}

// The property: random documents of one record per line (unique records, and real repeats far
// apart; with evidence also repeats side by side), random part sizes and overlaps; each part
// reads the lines wholly inside it. The merge loses no record and doubles none.
void MergeProperty(bool with_evidence) {
  std::mt19937 rng(with_evidence ? 7 : 45);
  for (int round = 0; round < 200; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    size_t max = 64 + rng() % 700;
    std::vector<std::string> truth;
    std::string doc;
    std::vector<std::pair<size_t, size_t>> lines;  // byte range of each record's line
    size_t n = rng() % 120;
    for (size_t i = 0; i < n; ++i) {
      std::string rec = "rec-" + std::to_string(i);
      // A real repeat of a record stated far enough back that no part holds both, or (with
      // evidence) of the record just before.
      if (i > 0 && rng() % 7 == 0) {
        if (with_evidence) {
          rec = truth.back();
        } else {
          for (size_t j = 0; j < i; ++j) {
            if (doc.size() - lines[j].second > 2 * max) {
              rec = truth[j];
              break;
            }
          }
        }
      }
      std::string line = "item " + rec + " qty " + std::to_string(rng() % 9) + "\n";
      lines.push_back({doc.size(), doc.size() + line.size()});
      truth.push_back(rec + "/" + line.substr(line.size() - 2, 1));
      doc += line;
      if (rng() % 11 == 0) doc += "\n";  // a paragraph break now and then
    }
    if (doc.empty()) continue;
    auto layout = SplitInput(doc, {max, static_cast<size_t>(rng() % (max / 3 + 1))});
    std::vector<PartAnswer> parts;
    for (const InputPart& p : layout) {
      PartAnswer a;
      Json items = Json::MakeArray();
      Json ev = Json::MakeObject();
      for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].first < p.begin || lines[i].second > p.end) continue;
        std::string at = "/items/" + std::to_string(items.size());
        items.push_back(Json(truth[i]));
        Json span = Json::MakeObject();
        span.set("byteStart", static_cast<int64_t>(lines[i].first));
        span.set("byteEnd", static_cast<int64_t>(lines[i].second));
        ev.set(at, std::move(span));
      }
      Json data = Json::MakeObject();
      if (items.size() > 0) data.set("items", std::move(items));
      a.data = std::move(data);
      if (with_evidence) a.evidence = std::move(ev);
      parts.push_back(std::move(a));
    }
    MergedAnswer m = MergeParts(parts);
    Json want = Json::MakeArray();
    for (const std::string& t : truth) want.push_back(Json(t));
    const Json* got = m.data.find("items");
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(ToJson(*got), ToJson(want)) << "parts " << layout.size();
  }
}

TEST(InputMergeTest, PropertyNoRecordLostOrDoubledWithoutEvidence) { MergeProperty(false); }
TEST(InputMergeTest, PropertyNoRecordLostOrDoubledWithEvidence) { MergeProperty(true); }

}  // namespace
}  // namespace structure::pipeline
