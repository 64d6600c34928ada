// Files before any call: media types from the bytes, the name and the declared type checked
// against them, limits, what each provider kind takes, and the JSON forms (data, data URLs,
// url and path refused).
#include "pipeline/files/input_files.h"

#include <gtest/gtest.h>

#include "base/base64.h"
#include "base/media_type.h"
#include "pipeline/files/files_json.h"
#include "tests/support/pdf_maker.h"

namespace structure::pipeline {
namespace {

using providers::ProviderKind;

InputFile File(std::string name, std::string data, std::string media_type = "") {
  return InputFile{std::move(name), std::move(media_type), std::move(data)};
}

std::string TwoPagePdf() {
  return testing::MakePdf(
      {testing::PdfTextPage({"Invoice INV-7"}), testing::PdfTextPage({"Total 99.50"})});
}

TEST(Base64Test, RoundTripsEveryLength) {
  std::string bytes;
  for (int i = 0; i < 300; ++i) {
    bytes += static_cast<char>(i * 37);
    auto back = Base64Decode(Base64Encode(bytes));
    ASSERT_TRUE(back.has_value()) << i;
    EXPECT_EQ(*back, bytes);
  }
  EXPECT_EQ(Base64Encode("Man"), "TWFu");
  EXPECT_EQ(Base64Encode("Ma"), "TWE=");
  EXPECT_EQ(Base64Encode("M"), "TQ==");
  EXPECT_EQ(*Base64Decode("TW\r\nFu"), "Man");
  EXPECT_EQ(*Base64Decode("TWE"), "Ma");
  EXPECT_FALSE(Base64Decode("TWF!").has_value());
  EXPECT_FALSE(Base64Decode("T").has_value());
  EXPECT_FALSE(Base64Decode("TQ==TQ==").has_value());
  EXPECT_FALSE(Base64Decode("TQ=").has_value());
}

TEST(MediaTypeTest, ToldFromTheBytesNotTheName) {
  EXPECT_EQ(DetectMediaType(TwoPagePdf()), kPdf);
  EXPECT_EQ(DetectMediaType(testing::TinyPng()), kPng);
  EXPECT_EQ(DetectMediaType(testing::JpegHead()), kJpeg);
  EXPECT_EQ(DetectMediaType(std::string("RIFF\x10\0\0\0WEBPVP8 ", 16)), kWebp);
  EXPECT_EQ(DetectMediaType("GIF89a..."), kGif);
  EXPECT_EQ(DetectMediaType("plain words\n"), kPlainText);
  EXPECT_EQ(DetectMediaType(std::string("\xff\xfe\0a", 4)), "");
  EXPECT_EQ(DetectMediaType(std::string("bin\0ary", 7)), "");
  EXPECT_EQ(MediaTypeOfName("scan.JPG"), kJpeg);
  EXPECT_EQ(MediaTypeOfName("dir.pdf/readme"), "");
  EXPECT_EQ(MediaTypeOfName("notes.dat"), "");
}

TEST(PrepareFilesTest, APdfGoesNativeToOpenAiWithItsPagesForEvidence) {
  std::vector<InputFile> files;
  files.push_back(File("invoice.pdf", TwoPagePdf()));
  files.push_back(File("logo.png", testing::TinyPng()));
  auto p = PrepareFiles(std::move(files), ProviderKind::kOpenAi, FilesAs::kNative);
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_EQ(p->parts.size(), 2u);
  EXPECT_EQ(p->parts[0].media_type, "application/pdf");
  EXPECT_EQ(p->parts[0].pages, 2);
  EXPECT_EQ(p->parts[0].text, nullptr);  // the document itself
  EXPECT_EQ(*p->parts[0].data, TwoPagePdf());
  EXPECT_EQ(p->parts[1].media_type, "image/png");
  ASSERT_EQ(p->pages.size(), 2u);
  EXPECT_EQ(p->pages[1].page, 2);
  EXPECT_NE(p->pages[1].text.find("Total 99.50"), std::string::npos);
  EXPECT_EQ(p->images, std::vector<std::string>{"logo.png"});
  EXPECT_TRUE(p->notes.empty());
}

TEST(PrepareFilesTest, OllamaGetsAPdfAsItsTextLayerAndSaysSo) {
  std::vector<InputFile> files{File("invoice.pdf", TwoPagePdf())};
  auto p = PrepareFiles(std::move(files), ProviderKind::kOllama, FilesAs::kNative);
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_NE(p->parts[0].text, nullptr);
  EXPECT_NE(p->parts[0].text->find("[page 2]\nTotal 99.50"), std::string::npos)
      << *p->parts[0].text;
  ASSERT_EQ(p->notes.size(), 1u);
  EXPECT_EQ(p->notes[0], "invoice.pdf: sent as its text layer (ollama takes no PDF documents)");
}

TEST(PrepareFilesTest, FilesAsTextSendsTheTextLayerToAnyProvider) {
  std::vector<InputFile> files{File("invoice.pdf", TwoPagePdf())};
  auto p = PrepareFiles(std::move(files), ProviderKind::kAnthropic, FilesAs::kText);
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_NE(p->parts[0].text, nullptr);
  EXPECT_EQ(p->notes[0], "invoice.pdf: sent as its text layer (filesAs \"text\")");
}

std::string PrepareError(InputFile f, ProviderKind kind, FilesAs as = FilesAs::kNative,
                         FileLimits limits = {}) {
  std::vector<InputFile> files{std::move(f)};
  auto p = PrepareFiles(std::move(files), kind, as, limits);
  return p.ok() ? "ok" : p.status().message();
}

TEST(PrepareFilesTest, EachBadFileIsRefusedNamingItAndWhatToDo) {
  EXPECT_EQ(PrepareError(File("photo.gif", "GIF89a....."), ProviderKind::kOllama),
            "files[0] (photo.gif): image/gif cannot go to ollama, which takes PNG and JPEG (PDFs "
            "as their text layer); convert the file or route the request to another provider");
  EXPECT_EQ(PrepareError(File("photo.gif", "GIF89a....."), ProviderKind::kGemini),
            "files[0] (photo.gif): image/gif cannot go to gemini, which takes PDF, PNG, JPEG and "
            "WebP; convert the file or route the request to another provider");
  EXPECT_EQ(PrepareError(File("report.pdf", testing::TinyPng()), ProviderKind::kOpenAi),
            "files[0] (report.pdf): the name says a PDF but the bytes are a PNG image; attach "
            "the right file or rename it");
  EXPECT_EQ(PrepareError(File("x", testing::TinyPng(), "application/pdf"), ProviderKind::kOpenAi),
            "files[0] (x): declared as application/pdf but its bytes are a PNG image (image/png)");
  EXPECT_EQ(PrepareError(File("", std::string("\0\1\2", 3)), ProviderKind::kOpenAi),
            "files[0]: not a PDF, PNG, JPEG, WebP, GIF or UTF-8 text file (told from its bytes); "
            "convert it to one of these");
  EXPECT_EQ(PrepareError(File("empty.txt", ""), ProviderKind::kOpenAi),
            "files[0] (empty.txt): the file is empty");
  FileLimits small;
  small.max_file_bytes = 10;
  EXPECT_EQ(
      PrepareError(File("a.txt", "eleven byte"), ProviderKind::kOpenAi, FilesAs::kNative, small),
      "files[0] (a.txt): 11 bytes, over the limit of 10 bytes a file");
  std::string pdf = TwoPagePdf();
  EXPECT_EQ(PrepareError(File("cut.pdf", pdf.substr(0, 200)), ProviderKind::kOpenAi),
            "files[0] (cut.pdf): the PDF is truncated (it does not end with %%EOF); attach the "
            "complete file");
  EXPECT_EQ(PrepareError(File("scan.pdf", testing::MakePdf({{}})), ProviderKind::kOllama),
            "files[0] (scan.pdf): the PDF has no text layer (a scan), and ollama reads PDFs only "
            "as text; send its pages as PNG or JPEG images, or route the request to a provider "
            "that reads PDFs (openai, anthropic, gemini)");
}

TEST(PrepareFilesTest, AScanGoesAsItIsToAProviderThatReadsPdfs) {
  std::vector<InputFile> files{File("scan.pdf", testing::MakePdf({{}}))};
  auto p = PrepareFiles(std::move(files), ProviderKind::kGemini, FilesAs::kNative);
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->scans, std::vector<std::string>{"scan.pdf"});
  EXPECT_TRUE(p->pages.empty());
}

TEST(PrepareFilesTest, TheTotalOfARequestIsBounded) {
  FileLimits limits;
  limits.max_total_bytes = 15;
  std::vector<InputFile> files{File("a.txt", "0123456789"), File("b.txt", "0123456789")};
  auto p = PrepareFiles(std::move(files), ProviderKind::kOpenAi, FilesAs::kNative, limits);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message(),
            "files[1] (b.txt): the files come to 20 bytes, over the limit of 15 bytes a request");
}

std::string JsonError(const std::string& text) {
  auto files = ParseFilesJson(*ParseJson(text), FileLimits{});
  return files.ok() ? "ok" : files.status().message();
}

TEST(FilesJsonTest, ReadsBase64AndDataUrls) {
  std::string b64 = Base64Encode(testing::TinyPng());
  auto files = ParseFilesJson(*ParseJson(R"([{"name":"a.png","data":")" + b64 +
                                         R"("},{"url":"data:image/png;base64,)" + b64 + R"("}])"),
                              FileLimits{});
  ASSERT_TRUE(files.ok()) << files.status().message();
  ASSERT_EQ(files->size(), 2u);
  EXPECT_EQ((*files)[0].data, testing::TinyPng());
  EXPECT_EQ((*files)[0].name, "a.png");
  EXPECT_EQ((*files)[1].media_type, "image/png");
  EXPECT_EQ((*files)[1].data, testing::TinyPng());
}

TEST(FilesJsonTest, EachBadFormIsRefusedNamingTheField) {
  EXPECT_EQ(JsonError(R"([{"url":"https://example.com/a.pdf"}])"),
            "files[0].url: the engine does not fetch URLs (was \"https://example.com/a.pdf\"); "
            "download the file and send its bytes as \"data\" (base64)");
  EXPECT_EQ(JsonError(R"([{"url":"data:application/pdf,%25PDF-1.4"}])"),
            "files[0].url: the data URL is not base64 (it needs \";base64\" before the \",\": "
            "data:application/pdf;base64,...)");
  EXPECT_EQ(JsonError(R"([{"data":"not base64!"}])"), "files[0].data: is not valid base64");
  EXPECT_EQ(JsonError(R"([{"path":"/etc/passwd"}])"),
            "files[0].path: files are read from disk only by batch records and `structure run "
            "--file`; send the bytes as \"data\" (base64)");
  EXPECT_EQ(JsonError(R"([{"data":"TQ==","url":"data:,x"}])"),
            "files[0]: give one of \"data\" (base64) and \"url\" (a data URL)");
  EXPECT_EQ(JsonError(R"([{"data":"TQ==","size":1}])"),
            "files[0].size: unknown field (data, mediaType, name, url)");
  EXPECT_EQ(JsonError(R"({"data":"TQ=="})"), "files: must be an array of files");
}

TEST(FilesJsonTest, ParseRequestTakesFilesAndThenNeedsNoPrompt) {
  std::string b64 = Base64Encode(TwoPagePdf());
  auto r = ParseRequest(*ParseJson(
      R"({"schema":{"type":"object"},"filesAs":"text","files":[{"name":"i.pdf","data":")" + b64 +
      R"("}]})"));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->prompt, "");
  ASSERT_EQ(r->files.size(), 1u);
  EXPECT_EQ(r->files[0].data, TwoPagePdf());
  EXPECT_EQ(r->files_as, FilesAs::kText);
  auto none = ParseRequest(*ParseJson(R"({"schema":{"type":"object"}})"));
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(), "prompt: is required (or files)");
  auto as = ParseRequest(*ParseJson(R"({"prompt":"x","schema":{},"filesAs":"pdf"})"));
  ASSERT_FALSE(as.ok());
  EXPECT_EQ(as.status().message(), "filesAs: must be \"native\" or \"text\" (was \"pdf\")");
}

}  // namespace
}  // namespace structure::pipeline
