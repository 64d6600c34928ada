// Issue 45's acceptance, as a new user meets it: a generated 300 KB invoice against a simulated
// model with an 8 192-token context that refuses longer requests with OpenAI's own error, and
// no window configured. `structure run` and `structure batch` return ONE object equal to the
// truth (every line item once, the real repeat twice, the header facts from the first part, the
// currency conflict reported), every evidence quote slices the whole document at its offsets,
// and the window learned from the one refusal serves the next call.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "base/json.h"
#include "base/read_file.h"
#include "tests/server/http_client.h"
#include "tests/support/long_invoice.h"
#include "tests/support/shell_command.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

class LongDocumentCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = ::testing::TempDir() + "long_document_" + std::to_string(getpid());
    ASSERT_EQ(std::system(("mkdir -p '" + dir_ + "'").c_str()), 0);
    invoice_ = testing::MakeLongInvoice(240);
    std::ofstream(dir_ + "/invoice.txt") << invoice_.text;
    std::ofstream(dir_ + "/invoice.schema.json") << testing::LongInvoiceSchema();
    std::ofstream(dir_ + "/scenario.json") << testing::LongInvoiceScenario(8192);
    std::string err;
    sim_ = testing::StartSim(STRUCTURE_BINARY, {"--scenario", dir_ + "/scenario.json"}, &err)
               .release();
    ASSERT_NE(sim_, nullptr) << err;
  }
  static void TearDownTestSuite() {
    delete sim_;
    sim_ = nullptr;
    EXPECT_EQ(std::system(("rm -rf '" + dir_ + "'").c_str()), 0);
  }

  void SetUp() override {
    ASSERT_NE(sim_, nullptr);
    testing::Http("POST", sim_->base_url() + "/stats/reset");
  }

  static std::string Flags() {
    return " --provider openai --base-url " + sim_->base_url() +
           " --model openai/long-context-8k --schema " + dir_ + "/invoice.schema.json";
  }

  static int64_t Refusals() {
    auto stats = ParseJson(testing::Http("GET", sim_->base_url() + "/stats").body);
    const Json* faults = stats.ok() ? stats->find("faults") : nullptr;
    const Json* n = faults ? faults->find("context_too_long") : nullptr;
    return n ? n->as_int() : 0;
  }

  // The result equals the truth, says how it was split, and its evidence slices the document.
  static void ExpectTheTruth(const Json& result) {
    ASSERT_EQ(result.find("status")->as_string(), "ok") << ToJson(result).substr(0, 2000);
    const Json& data = *result.find("data");
    EXPECT_TRUE(data == invoice_.truth) << ToJson(data).substr(0, 600);
    EXPECT_EQ(data.find("lineItems")->size(), 240u);
    ASSERT_NE(result.find("inputParts"), nullptr);
    EXPECT_GT(result.find("inputParts")->as_int(), 10);
    EXPECT_NE(result.find("modeReason")->as_string().find("overlapping parts"), std::string::npos);
    const Json* conflicts = result.find("conflicts");
    ASSERT_NE(conflicts, nullptr);
    ASSERT_EQ(conflicts->size(), 1u) << ToJson(*conflicts);
    const Json& c = conflicts->as_array()[0];
    EXPECT_EQ(c.find("pointer")->as_string(), "/currency");
    EXPECT_EQ(ToJson(*c.find("values")), R"(["EUR","USD"])");
    const Json* evidence = result.find("evidence");
    ASSERT_NE(evidence, nullptr);
    // Every line item's three leaves and the four header facts are quoted.
    EXPECT_EQ(evidence->size(), 240u * 3 + 4);
    for (const auto& [pointer, e] : evidence->as_object()) {
      size_t b = static_cast<size_t>(e.find("byteStart")->as_int());
      size_t x = static_cast<size_t>(e.find("byteEnd")->as_int());
      ASSERT_LE(x, invoice_.text.size()) << pointer;
      EXPECT_EQ(invoice_.text.substr(b, x - b), e.find("quote")->as_string()) << pointer;
    }
    // The real repeat: two quotes of the same text at different places.
    size_t first =
        static_cast<size_t>(evidence->find("/lineItems/24/sku")->find("byteStart")->as_int());
    size_t second =
        static_cast<size_t>(evidence->find("/lineItems/216/sku")->find("byteStart")->as_int());
    EXPECT_LT(first + 100000, second);
  }

  static inline testing::ChildProcess* sim_ = nullptr;
  static inline std::string dir_;
  static inline testing::LongInvoice invoice_;
};

TEST_F(LongDocumentCliTest, RunSplitsAfterTheRefusalAndReturnsTheTruth) {
  testing::CommandRun r = testing::RunShell(std::string(STRUCTURE_BINARY) + " run" + Flags() +
                                            " --evidence report --prompt-file " + dir_ +
                                            "/invoice.txt 2>" + dir_ + "/run.err");
  ASSERT_EQ(r.exit_code, 0) << r.out.substr(0, 2000);
  auto result = ParseJson(r.out);
  ASSERT_TRUE(result.ok()) << r.out.substr(0, 400);
  ExpectTheTruth(*result);
  EXPECT_NE(result->find("modeReason")->as_string().find("learned from the provider's refusal"),
            std::string::npos);
  EXPECT_EQ(Refusals(), 1);  // the whole document once; every part fits
}

TEST_F(LongDocumentCliTest, BatchLearnsTheWindowOnceAndTheNextCallUsesIt) {
  // Two records of the same document, one at a time: the first is refused once and split, the
  // second is split before it is sent.
  std::string jsonl = dir_ + "/invoices.jsonl";
  {
    std::ofstream out(jsonl);
    for (const char* id : {"a", "b"}) {
      Json line = Json::MakeObject();
      line.set("id", id);
      line.set("prompt", invoice_.text);
      line.set("evidence", "report");
      out << ToJson(line) << "\n";
    }
  }
  testing::CommandRun r =
      testing::RunShell(std::string(STRUCTURE_BINARY) + " batch " + jsonl + Flags() +
                        " --concurrency 1 -o " + dir_ + "/out.jsonl 2>" + dir_ + "/batch.err");
  auto err = ReadFile(dir_ + "/batch.err");
  ASSERT_EQ(r.exit_code, 0) << (err.ok() ? *err : "");
  auto text = ReadFile(dir_ + "/out.jsonl");
  ASSERT_TRUE(text.ok());
  int lines = 0;
  size_t at = 0;
  while (at < text->size()) {
    size_t end = text->find('\n', at);
    auto result = ParseJson(text->substr(at, end - at));
    ASSERT_TRUE(result.ok());
    ExpectTheTruth(*result);
    ++lines;
    at = end + 1;
  }
  EXPECT_EQ(lines, 2);
  EXPECT_EQ(Refusals(), 1);
}

TEST_F(LongDocumentCliTest, MaxInputTokensSplitsOnPurposeWithoutARefusal) {
  testing::CommandRun r = testing::RunShell(std::string(STRUCTURE_BINARY) + " run" + Flags() +
                                            " --max-input-tokens 3000 --prompt-file " + dir_ +
                                            "/invoice.txt 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.out.substr(0, 2000);
  auto result = ParseJson(r.out);
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(*result->find("data") == invoice_.truth);
  EXPECT_NE(result->find("modeReason")->as_string().find("maxInputTokensPerCall is 3000"),
            std::string::npos);
  EXPECT_EQ(Refusals(), 0);
}

}  // namespace
}  // namespace structure
