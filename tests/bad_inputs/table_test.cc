// The bad-input table's own parts: row loading, escapes, the sanitizer check.
#include "tests/bad_inputs/table.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace structure::testing {
namespace {

TEST(BadInputTableTest, UnescapesTheDocumentedSequencesOnly) {
  EXPECT_EQ(Unescape(R"(a\nb\r\t\\)"), "a\nb\r\t\\");
  EXPECT_EQ(Unescape(R"(\0)"), std::string(1, '\0'));
  EXPECT_EQ(Unescape(R"(\xff\x41)"),
            "\xff"
            "A");
  EXPECT_EQ(Unescape(R"({"a":"\"q\""})"), R"({"a":"\"q\""})");  // JSON escapes stay
  EXPECT_EQ(Unescape(R"(\xZ1 \)"), R"(\xZ1 \)");
}

TEST(BadInputTableTest, FindsEverySanitizerReport) {
  EXPECT_EQ(SanitizerReport("ok\nfile.cc:3:9: runtime error: signed integer overflow\n"),
            "file.cc:3:9: runtime error: signed integer overflow");
  EXPECT_NE(SanitizerReport("==1==ERROR: AddressSanitizer: SEGV on unknown address"), "");
  EXPECT_NE(SanitizerReport("==1==ERROR: LeakSanitizer: detected memory leaks"), "");
  EXPECT_EQ(SanitizerReport("structure run: cannot open x.json\n"), "");
}

TEST(BadInputTableTest, ReportsMalformedRowsWithTheirLine) {
  std::string dir = ::testing::TempDir() + "table_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/a.tsv") << "# comment\n\ncli\tone\ttrue\t0\t-\n"
                                << "cli\tone\ttrue\t0\t-\n"    // duplicate name
                                << "shell\ttwo\ttrue\t0\t-\n"  // unknown kind
                                << "cli\tthree\ttrue\t0\n";    // four fields
  std::vector<std::string> errors;
  std::vector<Row> rows = LoadRows(dir, &errors);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].Where(), "a.tsv:3 one");
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0], "a.tsv:4: duplicate row name 'one'");
  EXPECT_EQ(errors[1].rfind("a.tsv:5: unknown kind 'shell'", 0), 0u);
  EXPECT_EQ(errors[2], "a.tsv:6: expected 5 tab-separated fields, found 4");
  std::filesystem::remove_all(dir);
}

TEST(BadInputTableTest, ExcerptIsOneLine) {
  EXPECT_EQ(Excerpt("{\n  \"a\": 1\n}\n"), "{ \"a\": 1 } ");
  EXPECT_EQ(Excerpt(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(Excerpt("abcdef", 3), "abc...");
}

}  // namespace
}  // namespace structure::testing
