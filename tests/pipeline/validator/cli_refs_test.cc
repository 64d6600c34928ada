// `structure validate --draft / --ref`: the official suite's remote-reference
// tests through the CLI, the draft of a schema without $schema, and schema files that are not
// what they should be (invalid UTF-8, missing, duplicate $id).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/json.h"

namespace structure {
namespace {

namespace fs = std::filesystem;

const fs::path kSuite = fs::path(STRUCTURE_CORPORA_DIR) / "json-schema-test-suite";

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

void Write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class ValidatorCliRefs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("validator_cli_refs_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `structure validate --schema <dir>/schema.json FLAGS` on input.
  Outcome Validate(const std::string& schema, const std::string& input, const std::string& flags) {
    Write(dir_ / "schema.json", schema);
    Write(dir_ / "in.jsonl", input);
    std::string cmd = std::string(STRUCTURE_BINARY) + " validate --schema " +
                      (dir_ / "schema.json").string() + " " + flags + " < " +
                      (dir_ / "in.jsonl").string() + " > " + (dir_ / "out").string() + " 2> " +
                      (dir_ / "err").string();
    int status = std::system(cmd.c_str());
    Outcome run;
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = Slurp(dir_ / "out");
    run.err = Slurp(dir_ / "err");
    return run;
  }

  // One verdict letter per output line: t (valid) or f.
  static std::string Verdicts(const std::string& out) {
    std::string got;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);)
      got += line == "{\"valid\":true}" ? "t" : "f";
    return got;
  }

  fs::path dir_;
};

TEST_F(ValidatorCliRefs, PassesTheSuitesRemoteReferenceTests) {
  const std::string remotes = "--ref http://localhost:1234/=" + (kSuite / "remotes").string();
  int groups = 0, checked = 0;
  struct Dir {
    const char* name;
    const char* flags;
    std::vector<const char*> files;
  };
  for (const Dir& dir :
       {Dir{"draft2020-12",
            "",
            {"anchor.json", "dynamicRef.json", "ref.json", "refRemote.json", "vocabulary.json"}},
        Dir{"draft7", "--draft 7", {"ref.json", "refRemote.json"}}}) {
    for (const char* file : dir.files) {
      const std::string label = std::string(dir.name) + "/" + file;
      auto doc = ParseJson(Slurp(kSuite / "tests" / dir.name / file));
      ASSERT_TRUE(doc.ok()) << label << ": " << doc.status().message();
      for (const Json& group : doc->as_array()) {
        std::string schema = ToJson(*group.find("schema"));
        if (schema.find("localhost:1234") == std::string::npos) continue;  // needs no remote
        std::string input, expected;
        for (const Json& test : group.find("tests")->as_array()) {
          input += ToJson(*test.find("data")) + "\n";
          expected += test.find("valid")->as_bool() ? "t" : "f";
        }
        Outcome r = Validate(schema, input, remotes + " " + dir.flags);
        EXPECT_EQ(Verdicts(r.out), expected)
            << label << ": " << group.find("description")->as_string() << "\n"
            << r.out << r.err;
        EXPECT_EQ(r.exit_code, expected.find('f') == std::string::npos ? 0 : 1) << label << r.err;
        ++groups;
        checked += static_cast<int>(expected.size());
      }
    }
  }
  EXPECT_GE(groups, 30);
  EXPECT_GE(checked, 80);
}

TEST_F(ValidatorCliRefs, DraftFlagGivesSchemasWithoutDollarSchemaTheirMeaning) {
  const std::string schema =
      R"({"items":[{"type":"string"}]})";  // a tuple in draft 7, ignored in 2020-12
  EXPECT_EQ(Verdicts(Validate(schema, "[1]\n[\"a\"]\n", "--draft 7").out), "ft");
  EXPECT_EQ(Verdicts(Validate(schema, "[1]\n[\"a\"]\n", "--draft 4").out), "ft");
  EXPECT_EQ(Verdicts(Validate(schema, "[1]\n[\"a\"]\n", "").out), "tt");
  // $schema wins over --draft.
  EXPECT_EQ(
      Verdicts(
          Validate(
              R"({"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}]})",
              "[1]\n", "--draft 2020-12")
              .out),
      "f");
  // exclusiveMinimum is a number from draft 6 on, a boolean modifier in draft 4.
  EXPECT_EQ(Validate(R"({"exclusiveMinimum":3})", "1\n", "--draft 6").exit_code, 1);
  EXPECT_EQ(
      Verdicts(Validate(R"({"minimum":3,"exclusiveMinimum":true})", "3\n4\n", "--draft 4").out),
      "ft");
  for (const char* bad : {"8", "draft7", "", "2020"}) {
    Outcome r = Validate("{}", "1\n", std::string("--draft '") + bad + "'");
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--draft needs one of 2020-12, 2019-09, 7, 6, 4 (was '" +
                         std::string(bad) + "')"),
              std::string::npos)
        << r.err;
  }
}

TEST_F(ValidatorCliRefs, LoadsReferencedSchemasByTheirIdFromFilesAndFolders) {
  fs::create_directories(dir_ / "defs/more");
  Write(dir_ / "defs/id.json",
        R"({"$id":"https://example.com/id.json","type":"string","minLength":2})");
  Write(dir_ / "defs/more/n.json", R"({"$id":"https://example.com/n.json","type":"integer"})");
  Write(dir_ / "defs/notes.txt", "not a schema");
  const std::string schema =
      R"({"properties":{"id":{"$ref":"https://example.com/id.json"},"n":{"$ref":"https://example.com/n.json"}}})";
  const std::string input = "{\"id\":\"ab\",\"n\":1}\n{\"id\":\"a\"}\n{\"n\":\"x\"}\n";
  EXPECT_EQ(Verdicts(Validate(schema, input, "--ref " + (dir_ / "defs").string()).out), "tff");
  Outcome files = Validate(schema, input,
                           "--ref " + (dir_ / "defs/id.json").string() + " --ref " +
                               (dir_ / "defs/more/n.json").string());
  EXPECT_EQ(Verdicts(files.out), "tff") << files.err;
  // Without the folder the reference cannot resolve: a schema error that names it.
  Outcome none = Validate(schema, input, "");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("cannot resolve \"https://example.com/"), std::string::npos) << none.err;
}

TEST_F(ValidatorCliRefs, RefusesBadRefFilesNamingTheFlagAndTheFile) {
  auto error = [&](const std::string& flags) {
    Outcome r = Validate("{}", "1\n", flags);
    EXPECT_EQ(r.exit_code, 2) << flags;
    EXPECT_TRUE(r.out.empty()) << r.out;
    return r.err;
  };
  const std::string d = dir_.string();
  EXPECT_NE(error("--ref " + d + "/nosuch.json")
                .find("--ref " + d + "/nosuch.json: " + d + "/nosuch.json does not exist"),
            std::string::npos);
  fs::create_directories(dir_ / "empty");
  Write(dir_ / "empty/a.txt", "{}");
  EXPECT_NE(error("--ref " + d + "/empty").find("has no .json file in it"), std::string::npos);
  Write(dir_ / "a.json", R"({"$id":"https://example.com/x.json"})");
  Write(dir_ / "b.json", R"({"$id":"https://example.com/x.json","type":"string"})");
  EXPECT_NE(error("--ref " + d + "/a.json --ref " + d + "/b.json")
                .find(" both claim https://example.com/x.json"),
            std::string::npos);
  Write(dir_ / "noid.json", R"({"type":"string"})");
  EXPECT_NE(error("--ref " + d + "/noid.json").find("has no absolute $id"), std::string::npos);
  Write(dir_ / "broken.json", "{\"$id\":");
  EXPECT_NE(error("--ref " + d + "/broken.json").find(d + "/broken.json:1:8:"), std::string::npos);
  Write(dir_ / "utf8.json", "{\"$id\":\"https://example.com/\xff.json\"}");
  std::string utf8 = error("--ref " + d + "/utf8.json");
  EXPECT_NE(utf8.find("utf8.json:1:29: invalid UTF-8 at byte 28"), std::string::npos) << utf8;
  EXPECT_EQ(utf8.find('\xff'), std::string::npos);
}

TEST_F(ValidatorCliRefs, NeverEchoesInvalidUtf8FromTheSchema) {
  Outcome r = Validate("{\"properties\":{\"a\":{\"const\":\"\xc3\x28\"}}}", "{\"a\":1}\n", "");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("invalid UTF-8 at byte 29"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\xc3'), std::string::npos);
  EXPECT_TRUE(r.out.empty());
}

}  // namespace
}  // namespace structure
