// Array mode end to end: the records of a cut-off answer are kept and the rest asked for, a
// record repeated at the seam is kept once, an item schema is wrapped and read as JSON lines.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/engine_internal.h"
#include "tests/engine/engine_test_fixture.h"

namespace structure {
namespace {

using testing::EngineTest;

constexpr const char* kSchema = testing::kTicketSchemaText;

TEST_F(EngineTest, ArrayModeKeepsCompleteRecordsOfATruncatedAnswer) {
  std::string schema = std::string(R"({"type":"array","items":)") + kSchema + "}";
  // Cut off after two records: with a call left, the records after them are asked for and joined.
  StructureResult r =
      Run(R"({"prompt":"CASE-ARRAY three people","arrayMode":true,"schema":)" + schema + "}");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(ToJson(r.data),
            R"([{"name":"a","priority":1},{"name":"b","priority":2},{"name":"c","priority":3}])");
  EXPECT_FALSE(r.truncated);
  // With no call left the two complete records stand, and the result says records are missing.
  StructureResult cut = Run(R"({"prompt":"CASE-ARRAY three people","arrayMode":true,"maxLoops":1,)"
                            R"("schema":)" +
                            schema + "}");
  ASSERT_EQ(cut.status, Outcome::kOk) << ToJson(ResultToJson(cut));
  EXPECT_EQ(ToJson(cut.data), R"([{"name":"a","priority":1},{"name":"b","priority":2}])");
  EXPECT_TRUE(cut.truncated);
}

TEST_F(EngineTest, ArrayModeKeepsARecordRepeatedAtTheSeamOnce) {
  std::string schema = std::string(R"({"type":"array","items":)") + kSchema + "}";
  // Cut off after records a and b; the continuation starts again with b: b is kept once.
  StructureResult r = Run(R"({"prompt":"CASE-SEAM three people","arrayMode":true,"trace":true,)"
                          R"("schema":)" +
                          schema + "}");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(ToJson(r.data),
            R"([{"name":"a","priority":1},{"name":"b","priority":2},{"name":"c","priority":3}])");
  EXPECT_EQ(r.data.size(), 3u);
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.iterations, 2);
  // The continuation told the model how many records it had received and where to go on.
  std::string trace = ToJson(r.trace);
  EXPECT_NE(trace.find("records 1 to 2 are received and kept. Answer with record 3"),
            std::string::npos)
      << trace;
}

TEST_F(EngineTest, ArrayModeWrapsAnItemSchemaAndReadsJsonLines) {
  StructureResult r = RunInline("CASE-JSONL-FENCED two people", R"(,"arrayMode":true)");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(ToJson(r.data), R"([{"name":"a","priority":1},{"name":"b","priority":2}])");
  // Cut off with no call left: the complete lines stand, marked truncated.
  StructureResult cut =
      RunInline("CASE-JSONL-CUT three people", R"(,"arrayMode":true,"maxLoops":1)");
  ASSERT_EQ(cut.status, Outcome::kOk) << ToJson(ResultToJson(cut));
  EXPECT_EQ(ToJson(cut.data), R"([{"name":"a","priority":1},{"name":"b","priority":2}])");
  EXPECT_TRUE(cut.truncated);
  // Each line is validated as an item: the bad record is named by its position.
  StructureResult bad = RunInline("CASE-JSONL-BAD two people", R"(,"arrayMode":true,"maxLoops":1)");
  ASSERT_EQ(bad.status, Outcome::kStale) << ToJson(ResultToJson(bad));
  EXPECT_EQ(bad.errors, std::vector<std::string>{"/1/priority: value must be <= 5 (was 7)"});
  StructureResult fixed = RunInline("CASE-JSONL-BAD two people", R"(,"arrayMode":true)");
  ASSERT_EQ(fixed.status, Outcome::kOk) << ToJson(ResultToJson(fixed));
  EXPECT_EQ(fixed.iterations, 2);
}

TEST_F(EngineTest, ArrayModeWrapsARegistrySchema) {
  StructureResult r =
      Run(R"({"prompt":"CASE-JSONL-FENCED two","schemaName":"no-such","arrayMode":true})");
  EXPECT_EQ(r.error_code, ErrorCode::kUnknownSchema);
  ASSERT_TRUE(EngineInternal::Schemas(*engine_)
                  .Put({"acme", ""}, {"ticket", "1.0", testing::kTicketSchemaText, ""})
                  .ok());
  StructureResult named = Run(
      R"({"prompt":"CASE-JSONL-FENCED two","schemaName":"ticket","tenant":"acme","arrayMode":true})");
  ASSERT_EQ(named.status, Outcome::kOk) << ToJson(ResultToJson(named));
  EXPECT_EQ(named.data.size(), 2u);
}

}  // namespace
}  // namespace structure
