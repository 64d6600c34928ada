// The PDF text layer (pipeline/files/pdf_text.h) on PDFs the test makes: pages, two columns, a
// ligature, and the bad ones: truncated, encrypted (qpdf, when installed), too many pages,
// deeply nested, not a PDF.
#include "pipeline/files/pdf_text.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tests/support/pdf_maker.h"

namespace structure::pipeline {
namespace {

using testing::MakePdf;
using testing::PdfTextPage;

TEST(PdfTextTest, ReadsEveryPageInOrder) {
  std::string pdf = MakePdf({PdfTextPage({"Invoice INV-2291", "Customer: Ada Lovelace"}),
                             PdfTextPage({"Total due: 1,250.00 EUR"})});
  auto text = ReadPdfText(pdf, "invoice.pdf", 100);
  ASSERT_TRUE(text.ok()) << text.status().message();
  ASSERT_EQ(text->pages.size(), 2u);
  EXPECT_NE(text->pages[0].find("Invoice INV-2291"), std::string::npos) << text->pages[0];
  EXPECT_NE(text->pages[0].find("Customer: Ada Lovelace"), std::string::npos);
  EXPECT_EQ(text->pages[0].find("Total due"), std::string::npos);
  EXPECT_NE(text->pages[1].find("Total due: 1,250.00 EUR"), std::string::npos) << text->pages[1];
  EXPECT_TRUE(text->has_text());
  std::string model = PdfTextForModel(*text, "invoice.pdf");
  EXPECT_LT(model.find("[page 1]"), model.find("Invoice INV-2291"));
  EXPECT_LT(model.find("[page 2]"), model.find("Total due"));
}

TEST(PdfTextTest, TwoColumnsReadColumnByColumn) {
  testing::PdfPage page = {{72, 720, "Left one", false},
                           {320, 720, "Right one", false},
                           {72, 704, "Left two", false},
                           {320, 704, "Right two", false}};
  // Written column by column, as a two-column layout's content stream is.
  testing::PdfPage columns = {page[0], page[2], page[1], page[3]};
  auto text = ReadPdfText(MakePdf({columns}), "cols.pdf", 10);
  ASSERT_TRUE(text.ok()) << text.status().message();
  const std::string& t = text->pages[0];
  ASSERT_NE(t.find("Left two"), std::string::npos) << t;
  EXPECT_LT(t.find("Left one"), t.find("Left two")) << t;
  EXPECT_LT(t.find("Left two"), t.find("Right one")) << t;
}

TEST(PdfTextTest, ALigatureGlyphReadsAsItsLetters) {
  // StandardEncoding octal 256 is the "fi" ligature glyph.
  auto text = ReadPdfText(MakePdf({{{72, 720, "ef\\256cient of\\256ce", true}}}), "lig.pdf", 10);
  ASSERT_TRUE(text.ok()) << text.status().message();
  const std::string& t = text->pages[0];
  // Poppler gives the letters or the ligature code point (U+FB01, which NFKC folds to "fi").
  EXPECT_TRUE(t.find("efficient") != std::string::npos || t.find("ef\xEF\xAC\x81"
                                                                 "cient") != std::string::npos)
      << t;
}

TEST(PdfTextTest, AScanHasNoText) {
  auto text = ReadPdfText(MakePdf({{}}), "scan.pdf", 10);
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_FALSE(text->has_text());
}

TEST(PdfTextTest, ATruncatedPdfIsRefused) {
  std::string pdf = MakePdf({PdfTextPage({"Hello"})});
  auto text = ReadPdfText(pdf.substr(0, pdf.size() / 2), "cut.pdf", 10);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(),
            "cut.pdf: the PDF is truncated (it does not end with %%EOF); attach the complete "
            "file");
}

TEST(PdfTextTest, TooManyPagesAreRefusedBeforeAnyPageIsRead) {
  std::vector<testing::PdfPage> pages(12, PdfTextPage({"x"}));
  auto text = ReadPdfText(MakePdf(pages), "big.pdf", 10);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(), "big.pdf: the PDF has 12 pages, over the limit of 10");
}

TEST(PdfTextTest, DeepNestingEndsBoundedWithAnAnswer) {
  std::string deep = "/Nested " + std::string(200000, '[') + std::string(200000, ']') + " ";
  auto start = std::chrono::steady_clock::now();
  auto text = ReadPdfText(MakePdf({PdfTextPage({"Still here"})}, deep), "deep.pdf", 10);
  (void)start;
  // Poppler's parser stops at its nesting limit: the page either reads or the file is refused,
  // and nothing crashes.
  if (text.ok()) {
    ASSERT_EQ(text->pages.size(), 1u);
  } else {
    EXPECT_NE(text.status().message().find("deep.pdf: the PDF"), std::string::npos);
  }
}

TEST(PdfTextTest, NotAPdfAndGarbageAreRefused) {
  auto text = ReadPdfText("%PDF-1.4\ngarbage\n%%EOF\n", "bad.pdf", 10);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(), "bad.pdf: the PDF cannot be read: it is damaged or not a PDF");
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(PdfTextTest, AnEncryptedPdfIsRefused) {
  if (std::system("command -v qpdf >/dev/null 2>&1") != 0) GTEST_SKIP() << "qpdf not installed";
  std::string dir = ::testing::TempDir();
  std::string plain = dir + "/plain.pdf";
  std::string locked = dir + "/locked.pdf";
  {
    std::ofstream out(plain, std::ios::binary);
    out << MakePdf({PdfTextPage({"Secret"})});
  }
  for (const char* user : {"user", ""}) {
    SCOPED_TRACE(std::string("user password '") + user + "'");
    std::string cmd = "qpdf --encrypt '" + std::string(user) + "' owner 256 -- " + plain + " " +
                      locked + " 2>/dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    auto text = ReadPdfText(ReadAll(locked), "locked.pdf", 10);
    ASSERT_FALSE(text.ok());
    EXPECT_EQ(text.status().message(),
              "locked.pdf: the PDF is encrypted; remove the password (e.g. qpdf --decrypt in.pdf "
              "out.pdf) and attach it again");
  }
}

}  // namespace
}  // namespace structure::pipeline
