// Runs the official JSON-Schema-Test-Suite (draft2020-12 and draft7, required tests, plus
// optional/format for the formats we assert) against our validator. Known exceptions live in
// tests/data/validator/suite_exceptions.txt, one per line with its reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <simdjson.h>

#include "pipeline/validator/validator.h"

namespace structure::pipeline {
namespace {

namespace fs = std::filesystem;

const fs::path kSuite = fs::path(STRUCTURE_CORPORA_DIR) / "json-schema-test-suite";

std::map<std::string, Json> LoadRemotes() {
  std::map<std::string, Json> remotes;
  fs::path root = kSuite / "remotes";
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.load(entry.path().string()).get(doc) != simdjson::SUCCESS) continue;
    std::string rel = fs::relative(entry.path(), root).generic_string();
    remotes["http://localhost:1234/" + rel] = ElementToJson(doc);
  }
  return remotes;
}

// "draft2020-12/ref.json|group|test" keys of known exceptions.
std::set<std::string> LoadExceptions() {
  std::set<std::string> out;
  std::ifstream in(fs::path(STRUCTURE_SOURCE_DIR) / "tests/data/validator/suite_exceptions.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t reason = line.find("  #");
    out.insert(line.substr(0, reason));
  }
  return out;
}

struct Tally {
  int passed = 0;
  int failed = 0;
  int excepted = 0;
  std::vector<std::string> failures;
};

void RunFile(const fs::path& file, const std::string& label, ValidatorOptions options,
             const std::set<std::string>& exceptions, Tally* tally) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (exceptions.count(label + "|*")) {
    ++tally->excepted;
    return;
  }
  ASSERT_EQ(parser.load(file.string()).get(doc), simdjson::SUCCESS) << file;
  simdjson::dom::array groups = doc.get_array().value_unsafe();
  for (simdjson::dom::element group : groups) {
    std::string group_name(group["description"].get_string().value_unsafe());
    Json schema = ElementToJson(group["schema"].value_unsafe());
    auto compiled = CompileSchema(schema, options);
    simdjson::dom::array tests = group["tests"].get_array().value_unsafe();
    for (simdjson::dom::element test : tests) {
      std::string test_name(test["description"].get_string().value_unsafe());
      bool expected = test["valid"].get_bool().value_unsafe();
      std::string key = label + "|" + group_name + "|" + test_name;
      bool ok;
      std::string detail;
      if (!compiled.ok()) {
        ok = false;
        detail = "compile: " + compiled.status().message();
      } else {
        ValidationResult result = (*compiled)->Validate(test["data"].value_unsafe());
        ok = result.valid == expected;
        if (!result.errors.empty()) detail = result.errors.front().message;
        // A failing verdict always explains itself; a passing one carries no errors.
        EXPECT_EQ(result.valid, result.errors.empty()) << key;
        ValidationResult first = (*compiled)->Validate(test["data"].value_unsafe(), false);
        EXPECT_EQ(first.valid, result.valid) << key;
      }
      if (exceptions.count(key)) {
        ++tally->excepted;
        continue;
      }
      if (ok) {
        ++tally->passed;
      } else {
        ++tally->failed;
        tally->failures.push_back(key + " (expected " + (expected ? "valid" : "invalid") + "; " +
                                  detail + ")");
      }
    }
  }
}

Tally RunDirectory(const std::string& draft, Draft default_draft, bool assert_format) {
  ValidatorOptions options;
  options.resources = LoadRemotes();
  options.default_draft = default_draft;
  options.assert_format = assert_format;
  std::set<std::string> exceptions = LoadExceptions();
  Tally tally;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kSuite / "tests" / draft)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    RunFile(file, draft + "/" + file.filename().string(), options, exceptions, &tally);
  }
  return tally;
}

std::string Report(const Tally& t) {
  std::ostringstream out;
  out << t.passed << " passed, " << t.failed << " failed, " << t.excepted << " listed exceptions\n";
  for (const std::string& f : t.failures) out << "  " << f << "\n";
  return out.str();
}

TEST(ValidatorSuite, PassesDraft2020RequiredTests) {
  Tally t = RunDirectory("draft2020-12", Draft::k2020_12, /*assert_format=*/false);
  EXPECT_EQ(t.failed, 0) << Report(t);
  EXPECT_GT(t.passed, 1200);
}

TEST(ValidatorSuite, PassesDraft7RequiredTests) {
  Tally t = RunDirectory("draft7", Draft::kDraft7, /*assert_format=*/false);
  EXPECT_EQ(t.failed, 0) << Report(t);
  EXPECT_GT(t.passed, 850);
}

// The optional (non-format) tests: ECMA regex semantics, bignums, cross-draft refs, etc.
// Every failure must be listed in suite_exceptions.txt.
TEST(ValidatorSuite, PassesOptionalTestsExceptListed) {
  for (const std::string draft : {"draft2020-12", "draft7"}) {
    ValidatorOptions options;
    options.resources = LoadRemotes();
    options.default_draft = draft == "draft7" ? Draft::kDraft7 : Draft::k2020_12;
    Tally t;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(kSuite / "tests" / draft / "optional")) {
      if (entry.is_regular_file() && entry.path().extension() == ".json")
        files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      RunFile(file, draft + "/optional/" + file.filename().string(), options, LoadExceptions(), &t);
    }
    EXPECT_EQ(t.failed, 0) << draft << ": " << Report(t);
    EXPECT_GT(t.passed, 100);
  }
}

class ValidatorFormatSuite : public ::testing::TestWithParam<std::string> {};

TEST_P(ValidatorFormatSuite, AssertsFormatInAtLeast95PercentOfOptionalTests) {
  for (const std::string draft : {"draft2020-12", "draft7"}) {
    fs::path file = kSuite / "tests" / draft / "optional/format" / (GetParam() + ".json");
    if (!fs::exists(file)) continue;
    ValidatorOptions options;
    options.default_draft = draft == "draft7" ? Draft::kDraft7 : Draft::k2020_12;
    Tally t;
    RunFile(file, draft + "/optional/format/" + GetParam() + ".json", options, LoadExceptions(),
            &t);
    int total = t.passed + t.failed;
    ASSERT_GT(total, 0);
    EXPECT_GE(t.passed * 100, total * 95) << draft << " " << GetParam() << ": " << Report(t);
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, ValidatorFormatSuite,
                         ::testing::Values("date-time", "date", "time", "duration", "email",
                                           "hostname", "ipv4", "ipv6", "uuid", "uri",
                                           "uri-reference", "iri", "iri-reference", "json-pointer",
                                           "relative-json-pointer", "regex"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace structure::pipeline
