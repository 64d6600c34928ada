// Every real-world schema of the developer corpus compiles (unknown keywords ignored), or is
// refused only for a $ref to a document that is not there (fail closed; it compiles when that is
// allowed), and validates a few generic instances without trouble.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "base/read_file.h"
#include "pipeline/validator/validator.h"

namespace structure::pipeline {
namespace {

namespace fs = std::filesystem;

TEST(ValidatorRealWorld, CompilesEveryCorpusSchema) {
  fs::path dir = fs::path(STRUCTURE_CORPORA_DIR) / "realworld-schemas";
  int compiled = 0, not_json = 0, with_warnings = 0, unresolved = 0;
  std::vector<std::string> failures;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    auto text = ReadFile(entry.path().string());
    ASSERT_TRUE(text.ok());
    ParseOptions parse_options;
    parse_options.max_depth = 1000;
    auto schema = ParseJson(*text, parse_options);
    if (!schema.ok()) {
      ++not_json;
      continue;
    }
    auto v = CompileSchema(*schema);
    if (!v.ok() && v.status().message().find(": cannot resolve \"") != std::string::npos) {
      ++unresolved;
      ValidatorOptions allow;
      allow.allow_unresolved_refs = true;
      v = CompileSchema(*schema, allow);
    }
    if (!v.ok()) {
      failures.push_back(entry.path().filename().string() + ": " + v.status().message());
      continue;
    }
    ++compiled;
    if (!(*v)->warnings().empty()) ++with_warnings;
    for (const char* instance : {"{}", "null", "[]", "\"x\"", "{\"a\":[1,2,{\"b\":null}]}"}) {
      auto r = (*v)->ValidateText(instance);
      ASSERT_TRUE(r.ok());
      EXPECT_EQ(r->valid, r->errors.empty()) << entry.path();
    }
  }
  std::string list;
  for (const std::string& f : failures) list += "  " + f + "\n";
  EXPECT_TRUE(failures.empty()) << list;
  EXPECT_GE(compiled, 480) << "not JSON: " << not_json;
  RecordProperty("with_warnings", with_warnings);
  RecordProperty("unresolved_refs", unresolved);
  EXPECT_LE(unresolved, 10) << "more corpus schemas refer to documents that are not there";
}

}  // namespace
}  // namespace structure::pipeline
