// The one ID rule (base/id.h): letters, digits and - _ . : @, 1..128 of them, not "." or "..".
#include "base/id.h"

#include <gtest/gtest.h>

#include <string>

namespace structure {
namespace {

TEST(IdTest, AcceptsLettersDigitsAndTheFivePunctuationMarks) {
  const std::string ids[] = {"acme",
                             "Acme-Corp_2",
                             "user@example.com",
                             "a:b",
                             "...",
                             ".x",
                             "-x",
                             std::string(kMaxIdLength, 'z')};
  for (const std::string& id : ids) {
    EXPECT_TRUE(CheckId(id, "--tenant").ok()) << id << ": " << CheckId(id, "--tenant").message();
  }
}

TEST(IdTest, RefusesPathsAndOtherBytesNamingTheFirstWrongOne) {
  struct Case {
    std::string id;
    std::string says;
  };
  const Case cases[] = {
      {"../x",
       "--tenant: \"../x\" has '/' at position 2 (an id is 1..128 letters, digits and "
       "- _ . : @, and not \".\" or \"..\" alone)"},
      {"..", "--tenant: \"..\" names a folder"},
      {".", "--tenant: \".\" names a folder"},
      {"", "--tenant: the id is empty"},
      {"a\\b", "has '\\' at position 1"},
      {"a b", "has ' ' at position 1"},
      {std::string("a\0b", 3), "\"a?b\" has byte \\x00 at position 1"},
      {"caf\xc3\xa9", "has byte \\xc3 at position 3"},
      {std::string(kMaxIdLength + 1, 'z'), "is 129 characters long"},
  };
  for (const Case& c : cases) {
    Status s = CheckId(c.id, "--tenant");
    EXPECT_EQ(s.code(), Code::kInvalidArgument) << c.id;
    EXPECT_NE(s.message().find(c.says), std::string::npos) << s.message();
    EXPECT_EQ(IdProblem(c.id), s.message().substr(std::string("--tenant: ").size()));
  }
}

}  // namespace
}  // namespace structure
