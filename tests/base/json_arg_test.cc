// A JSON document named on the command line (base/json_arg.h): the text itself when it starts
// with '{' and names no file, else the file.
#include "base/json_arg.h"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/scratch_dir.h"

namespace structure {
namespace {

class JsonArgTest : public testing::ScratchDirTest {
 protected:
  JsonArgTest() : ScratchDirTest("json_arg") {}
};

TEST_F(JsonArgTest, TextThatStartsWithABraceIsTheDocument) {
  auto arg = ReadJsonArg("  {\"type\":\"object\"}", "--schema", 1024, "the schema limit");
  ASSERT_TRUE(arg.ok()) << arg.status().message();
  EXPECT_TRUE(arg->is_inline);
  EXPECT_EQ(arg->text, "  {\"type\":\"object\"}");
  EXPECT_EQ(arg->source, "--schema");
}

TEST_F(JsonArgTest, AFileNamedLikeJsonIsReadAsAFile) {
  const std::string path = Path("{x}");
  std::ofstream(path) << "{\"type\":\"string\"}";
  auto arg = ReadJsonArg(path, "--schema", 1024, "the schema limit");
  ASSERT_TRUE(arg.ok()) << arg.status().message();
  EXPECT_FALSE(arg->is_inline);
  EXPECT_EQ(arg->text, "{\"type\":\"string\"}");
  EXPECT_EQ(arg->source, path);
}

TEST_F(JsonArgTest, InlineTextIsBoundedAsAFileIs) {
  auto arg = ReadJsonArg("{\"description\":\"" + std::string(2000, 'x') + "\"}", "--schema", 1024,
                         "the schema limit");
  ASSERT_FALSE(arg.ok());
  EXPECT_EQ(arg.status().message(), "the JSON given is larger than 1024 bytes (the schema limit)");
}

TEST_F(JsonArgTest, AnythingElseIsAFileThatMustExist) {
  auto arg = ReadJsonArg(Path("nosuch.json"), "--schema", 1024, "the schema limit");
  ASSERT_FALSE(arg.ok());
  EXPECT_EQ(arg.status().code(), Code::kNotFound);
  EXPECT_NE(arg.status().message().find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace structure
