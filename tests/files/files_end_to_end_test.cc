// Files end to end, as a new user meets them: `structure run --file` against `structure sim`
// (which reads each provider's file parts and a PDF's text layer with the engine's reader), and
// `structure serve`'s chat completions with a file part. Acceptance of issue 46: a two-page
// text-layer PDF gives `ok`, the data equal to the truth, and every evidence entry names its
// page, the quote being on that page; the PDF and a PNG reach openai, anthropic and gemini in
// their own parts with bytes identical to the files.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "base/base64.h"
#include "base/json.h"
#include "base/read_file.h"
#include "pipeline/files/pdf_text.h"
#include "tests/server/http_client.h"
#include "tests/support/child_process.h"
#include "tests/support/pdf_maker.h"

namespace structure {
namespace {

const std::string kData = std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/files/";

std::string Slurp(const std::string& path) {
  auto text = ReadFile(path);
  return text.ok() ? *text : "";
}

std::string InvoicePdf() {
  return testing::MakePdf(
      {testing::PdfTextPage({"Invoice INV-2291", "Customer: Ada Lovelace", "Thank you."}),
       testing::PdfTextPage({"Total due: 1,250.00 EUR", "Payable within 30 days."})});
}

class FilesEndToEndTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string error;
    record_ = ::testing::TempDir() + "files_requests_" + std::to_string(getpid()) + ".jsonl";
    sim_ = testing::ChildProcess::StartListening(
               {STRUCTURE_BINARY, "sim", "--port", "0", "--scenario", kData + "scenario.json",
                "--record-requests", record_},
               std::chrono::seconds(60), &error)
               .release();
    ASSERT_NE(sim_, nullptr) << error;
  }
  static void TearDownTestSuite() {
    delete sim_;
    sim_ = nullptr;
    std::remove(record_.c_str());
  }

  void SetUp() override {
    ASSERT_NE(sim_, nullptr);
    dir_ = ::testing::TempDir() + "files_e2e_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    mkdir(dir_.c_str(), 0755);
  }
  void TearDown() override {
    std::string rm = "rm -rf '" + dir_ + "' '" + dir_ + ".out' '" + dir_ + ".err'";
    EXPECT_EQ(std::system(rm.c_str()), 0);
  }

  std::string Write(const std::string& name, const std::string& bytes) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  struct Outcome {
    int code = -1;
    Json result;
    std::string out, err;
  };

  Outcome Run(std::vector<std::string> args) {
    std::vector<std::string> argv = {"/usr/bin/env",
                                     "-u",
                                     "OPENAI_API_KEY",
                                     "-u",
                                     "ANTHROPIC_API_KEY",
                                     "-u",
                                     "GEMINI_API_KEY",
                                     "-C",
                                     dir_,
                                     STRUCTURE_BINARY,
                                     "run",
                                     "--schema",
                                     kData + "invoice.schema.json",
                                     "--base-url",
                                     sim_->base_url(),
                                     "--database",
                                     ":memory:"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::string error;
    auto child = testing::ChildProcess::Spawn(argv, {"", dir_ + ".out", dir_ + ".err"}, &error);
    Outcome o;
    if (!child) return o;
    o.code = child->Wait();
    o.out = Slurp(dir_ + ".out");
    o.err = Slurp(dir_ + ".err");
    auto parsed = ParseJson(o.out);
    if (parsed.ok()) o.result = *parsed;
    return o;
  }

  // The body of the last request the simulator recorded ({"path", "body": its text} lines).
  static Json LastRecorded() {
    std::string all = Slurp(record_);
    size_t end = all.find_last_not_of('\n');
    if (end == std::string::npos) return Json();
    size_t start = all.rfind('\n', end);
    start = start == std::string::npos ? 0 : start + 1;
    auto line = ParseJson(all.substr(start, end + 1 - start));
    const Json* body = line.ok() ? line->find("body") : nullptr;
    auto parsed =
        body != nullptr && body->is_string() ? ParseJson(body->as_string()) : Result<Json>(Json());
    return parsed.ok() ? *parsed : Json();
  }

  static inline testing::ChildProcess* sim_ = nullptr;
  static inline std::string record_;
  std::string dir_;
};

std::string Str(const Json& j, std::string_view key) {
  const Json* v = j.find(key);
  return v != nullptr && v->is_string() ? v->as_string() : "";
}

TEST_F(FilesEndToEndTest, ATwoPagePdfGivesTheTruthWithEveryQuoteOnItsPage) {
  std::string pdf = Write("invoice.pdf", InvoicePdf());
  auto pages = pipeline::ReadPdfText(InvoicePdf(), "invoice.pdf", 10);
  ASSERT_TRUE(pages.ok());
  for (const char* provider : {"openai", "anthropic", "gemini", "ollama"}) {
    SCOPED_TRACE(provider);
    Outcome r = Run({"--file", pdf, "--provider", provider, "--evidence", "require"});
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_EQ(Str(r.result, "status"), "ok");
    EXPECT_EQ(ToJson(*r.result.find("data")),
              R"({"invoice":"INV-2291","customer":"Ada Lovelace","total":1250})");
    EXPECT_EQ(ToJson(*r.result.find("ungrounded")), "[]");
    const Json& evidence = *r.result.find("evidence");
    ASSERT_EQ(evidence.size(), 3u) << ToJson(evidence);
    for (const auto& [pointer, e] : evidence.as_object()) {
      SCOPED_TRACE(pointer);
      EXPECT_EQ(Str(e, "file"), "invoice.pdf");
      ASSERT_NE(e.find("page"), nullptr) << ToJson(e);
      int64_t page = e.find("page")->as_int();
      ASSERT_TRUE(page == 1 || page == 2);
      const std::string& text = pages->pages[static_cast<size_t>(page - 1)];
      auto begin = static_cast<size_t>(e.find("byteStart")->as_int());
      auto end = static_cast<size_t>(e.find("byteEnd")->as_int());
      ASSERT_LE(end, text.size());
      EXPECT_EQ(text.substr(begin, end - begin), Str(e, "quote"));
    }
    EXPECT_EQ(evidence.find("/total")->find("page")->as_int(), 2);
    EXPECT_EQ(evidence.find("/customer")->find("page")->as_int(), 1);
    // Ollama takes no documents: the text layer went instead, and the result says so.
    const Json* notes = r.result.find("notes");
    if (std::string(provider) == "ollama") {
      ASSERT_NE(notes, nullptr) << r.out;
      EXPECT_EQ(ToJson(*notes),
                R"j(["invoice.pdf: sent as its text layer (ollama takes no PDF documents)"])j");
    } else {
      EXPECT_EQ(notes, nullptr) << r.out;
    }
  }
}

// The recorded request bodies: the PDF and the PNG in each provider's own part, bytes identical.
TEST_F(FilesEndToEndTest, ThePdfAndAPngReachEachProviderInItsOwnPartUnchanged) {
  std::string pdf_bytes = InvoicePdf();
  std::string pdf = Write("invoice.pdf", pdf_bytes);
  std::string png = Write("logo.png", testing::TinyPng());
  struct Case {
    const char* provider;
    const char* pdf_at;  // where the base64 (or data URL) of each file is, in the user message
    const char* png_at;
    const char* prefix_pdf;
    const char* prefix_png;
  };
  for (Case c : {Case{"openai", "/messages/1/content/0/file/file_data",
                      "/messages/1/content/1/image_url/url", "data:application/pdf;base64,",
                      "data:image/png;base64,"},
                 Case{"anthropic", "/messages/0/content/0/source/data",
                      "/messages/0/content/1/source/data", "", ""},
                 Case{"gemini", "/contents/0/parts/0/inlineData/data",
                      "/contents/0/parts/1/inlineData/data", "", ""}}) {
    SCOPED_TRACE(c.provider);
    // The scenario answers in the evidence form (tests/data/files/scenario.json).
    Outcome r =
        Run({"--file", pdf, "--file", png, "--provider", c.provider, "--evidence", "report"});
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    Json recorded = LastRecorded();
    const Json* body = &recorded;
    ASSERT_TRUE(body->is_object()) << ToJson(recorded).substr(0, 500);
    for (auto [at, prefix, bytes] : {std::tuple{c.pdf_at, c.prefix_pdf, pdf_bytes},
                                     std::tuple{c.png_at, c.prefix_png, testing::TinyPng()}}) {
      const Json* v = body;
      std::string p = at;
      for (size_t i = 1; v != nullptr && i < p.size();) {
        size_t j = p.find('/', i);
        std::string t = p.substr(i, j == std::string::npos ? std::string::npos : j - i);
        v = v->is_array() ? (std::stoul(t) < v->size() ? &v->as_array()[std::stoul(t)] : nullptr)
                          : v->find(t);
        i = j == std::string::npos ? p.size() : j + 1;
      }
      ASSERT_NE(v, nullptr) << at << "\n" << ToJson(*body).substr(0, 800);
      std::string text = v->as_string();
      ASSERT_EQ(text.substr(0, std::string(prefix).size()), prefix);
      auto decoded = Base64Decode(text.substr(std::string(prefix).size()));
      ASSERT_TRUE(decoded.has_value());
      EXPECT_TRUE(*decoded == bytes) << at;
    }
  }
}

TEST_F(FilesEndToEndTest, RequireReasksAQuoteOnNoPage) {
  std::string pdf =
      Write("inv.pdf", testing::MakePdf({testing::PdfTextPage(
                           {"Invoice INV-3300", "Customer: Alan Turing", "Total: 80.00"})}));
  Outcome r = Run({"--file", pdf, "--provider", "openai", "--evidence", "require"});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.result.find("iterations")->as_int(), 2);
  EXPECT_EQ(Str(*r.result.find("data"), "customer"), "Alan Turing");
  EXPECT_EQ(r.result.find("evidence")->find("/customer")->find("page")->as_int(), 1);
}

TEST_F(FilesEndToEndTest, AScanAndAnImageGiveUncheckedQuotes) {
  std::string scan = Write("scan.pdf", testing::MakePdf({{}}));
  std::string png = Write("receipt.png", testing::TinyPng());
  for (auto [file, kind] : {std::pair{scan, "scan"}, std::pair{png, "image"}}) {
    SCOPED_TRACE(kind);
    Outcome r = Run({"--file", file, "--prompt", "NO-TEXT-LAYER", "--provider", "openai",
                     "--evidence", "require"});
    ASSERT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_EQ(r.result.find("iterations")->as_int(), 1);
    EXPECT_EQ(ToJson(*r.result.find("ungrounded")), "[]");
    const Json& total = *r.result.find("evidence")->find("/total");
    EXPECT_EQ(Str(total, "match"), "unchecked") << ToJson(total);
    EXPECT_EQ(Str(total, "kind"), kind);
    EXPECT_EQ(total.find("byteStart"), nullptr);
  }
}

TEST_F(FilesEndToEndTest, FilesAsTextSendsTheTextLayer) {
  std::string pdf = Write("invoice.pdf", InvoicePdf());
  Outcome r =
      Run({"--file", pdf, "--provider", "anthropic", "--files-as", "text", "--evidence", "report"});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(ToJson(*r.result.find("notes")),
            R"j(["invoice.pdf: sent as its text layer (filesAs \"text\")"])j");
  std::string body = ToJson(LastRecorded());
  EXPECT_EQ(body.find("\"document\""), std::string::npos);
  EXPECT_NE(body.find("[page 2]"), std::string::npos);
}

TEST_F(FilesEndToEndTest, ChatCompletionsWithAFilePartAnswersTheValidatedObject) {
  std::string error;
  auto serve = testing::ChildProcess::StartListening(
      {STRUCTURE_BINARY, "serve", "--config",
       std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/server/server.toml", "--port", "0",
       "--base-url", sim_->base_url() + "/v1", "--database", ":memory:"},
      std::chrono::seconds(60), &error);
  ASSERT_NE(serve, nullptr) << error;
  std::string schema = Slurp(kData + "invoice.schema.json");
  std::string body =
      R"({"model":"default:fast","messages":[{"role":"user","content":[{"type":"file","file":{"filename":"invoice.pdf","file_data":"data:application/pdf;base64,)" +
      Base64Encode(InvoicePdf()) +
      R"("}},{"type":"text","text":"Read the invoice."}]}],"response_format":{"type":"json_schema","json_schema":{"name":"invoice","strict":true,"schema":)" +
      schema + R"(}},"structure":{"evidence":"report"}})";
  auto reply = testing::Http("POST", serve->base_url() + "/v1/chat/completions", body,
                             {"Authorization: Bearer key-globex"});
  ASSERT_EQ(reply.status, 200) << reply.body;
  auto parsed = ParseJson(reply.body);
  ASSERT_TRUE(parsed.ok()) << reply.body;
  std::string content =
      (*parsed->find("choices")).as_array()[0].find("message")->find("content")->as_string();
  EXPECT_EQ(content, R"({"invoice":"INV-2291","customer":"Ada Lovelace","total":1250})");
  // The file went on to the provider as a file part.
  std::string sent = ToJson(LastRecorded());
  EXPECT_NE(sent.find(R"("filename":"invoice.pdf")"), std::string::npos) << sent.substr(0, 500);
}

}  // namespace
}  // namespace structure
