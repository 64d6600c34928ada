// `structure validate`: spawns the built binary on temp files and checks lines and exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/json.h"
#include "base/read_file.h"
#include "pipeline/validator/validator.h"

namespace structure {
namespace {

namespace fs = std::filesystem;

struct CliRun {
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

class ValidatorCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("validator_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  CliRun Validate(const std::string& schema, const std::string& input,
                  const std::string& flags = "") {
    Write(dir_ / "schema.json", schema);
    Write(dir_ / "in.jsonl", input);
    std::string cmd = std::string(STRUCTURE_BINARY) + " validate --schema " +
                      (dir_ / "schema.json").string() + " " + flags + " < " +
                      (dir_ / "in.jsonl").string() + " > " + (dir_ / "out").string() + " 2> " +
                      (dir_ / "err").string();
    int status = std::system(cmd.c_str());
    CliRun run;
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.out = Slurp(dir_ / "out");
    run.err = Slurp(dir_ / "err");
    return run;
  }

  fs::path dir_;
};

constexpr const char* kSchema = R"({"type":"object","required":["priority"],
  "properties":{"priority":{"type":"integer","maximum":5}}})";

TEST_F(ValidatorCli, PrintsOneLinePerInstanceAndExitsZeroWhenAllValid) {
  CliRun r = Validate(kSchema, "{\"priority\":1}\n{\"priority\":5}\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"valid\":true}\n{\"valid\":true}\n");
}

TEST_F(ValidatorCli, ReportsErrorsAndExitsOneWhenAnyInvalid) {
  CliRun r = Validate(kSchema, "{\"priority\":7}\n{\"priority\":2}\n");
  EXPECT_EQ(r.exit_code, 1);
  std::istringstream lines(r.out);
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  EXPECT_EQ(second, "{\"valid\":true}");
  auto parsed = ParseJson(first);
  ASSERT_TRUE(parsed.ok()) << first;
  EXPECT_FALSE(parsed->find("valid")->as_bool());
  const Json& error = parsed->find("errors")->as_array().at(0);
  EXPECT_EQ(error.find("instancePath")->as_string(), "/priority");
  EXPECT_EQ(error.find("schemaPath")->as_string(), "/properties/priority/maximum");
  EXPECT_EQ(error.find("keyword")->as_string(), "maximum");
  EXPECT_EQ(error.find("message")->as_string(), "/priority: value must be <= 5 (was 7)");
}

TEST_F(ValidatorCli, ReportsNonJsonLineAndGoesOn) {
  CliRun r = Validate(kSchema, "{not json\n{\"priority\":3}\n");
  EXPECT_EQ(r.exit_code, 1);
  std::istringstream lines(r.out);
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  auto parsed = ParseJson(first);
  ASSERT_TRUE(parsed.ok()) << first;
  EXPECT_FALSE(parsed->find("valid")->as_bool());
  // Where the line went wrong: its line, column and byte offset.
  EXPECT_NE(parsed->find("error")->as_string().find("line 1, column "), std::string::npos) << first;
  EXPECT_EQ(*parsed->find("line"), Json(1)) << first;
  EXPECT_EQ(second, "{\"valid\":true}");
}

TEST_F(ValidatorCli, ExitsTwoWithMessageForBadSchema) {
  CliRun r = Validate("{\"type\": ", "1\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("schema.json"), std::string::npos) << r.err;
  CliRun bad = Validate(R"({"minLength":"x"})", "1\n");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("/minLength"), std::string::npos) << bad.err;
}

TEST_F(ValidatorCli, ExitsTwoForUsageErrors) {
  Write(dir_ / "in.jsonl", "1\n");
  std::string cmd = std::string(STRUCTURE_BINARY) + " validate < " + (dir_ / "in.jsonl").string() +
                    " > /dev/null 2> " + (dir_ / "err").string();
  int status = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(Slurp(dir_ / "err").find("--schema"), std::string::npos);
}

TEST_F(ValidatorCli, FormatCanBeSwitchedOff) {
  const char* schema = R"({"format":"date"})";
  EXPECT_EQ(Validate(schema, "\"2024-02-30\"\n").exit_code, 1);
  EXPECT_EQ(Validate(schema, "\"2024-02-30\"\n", "--no-format").exit_code, 0);
}

// What the engine refuses, validate refuses (exit 2, naming the location).
TEST_F(ValidatorCli, ExitsTwoForSchemasTheEngineRefuses) {
  for (auto [schema, where] : std::vector<std::pair<std::string, std::string>>{
           {R"({"type":5})", "schema /type: must be a type name"},
           {R"({"minimum":"x"})", "schema /minimum: must be a number"},
           {R"({"pattern":"(("})", "schema /pattern: invalid pattern"},
           {R"({"$ref":"https://taskfile.dev/schema.json"})", "schema /$ref: cannot resolve"},
           {R"({"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"})", "$ref cycle"}}) {
    CliRun r = Validate(schema, "42\n");
    EXPECT_EQ(r.exit_code, 2) << schema;
    EXPECT_EQ(r.out, "") << schema;
    EXPECT_NE(r.err.find(where), std::string::npos) << schema << ": " << r.err;
  }
  CliRun allowed =
      Validate(R"({"$ref":"https://taskfile.dev/schema.json"})", "42\n", "--allow-unresolved-refs");
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_NE(allowed.err.find("warning: schema /$ref: cannot resolve"), std::string::npos)
      << allowed.err;
  CliRun items = Validate(R"({"items":[{"type":"string"}]})", "[1]\n");
  EXPECT_EQ(items.exit_code, 0);
  EXPECT_NE(items.err.find("warning: schema /items: an array has no meaning in draft 2020-12"),
            std::string::npos);
  EXPECT_EQ(Validate(R"({"items":[{"type":"string"}]})", "[1]\n", "--strict").exit_code, 2);
}

// At most N errors per instance, then one final marker.
TEST_F(ValidatorCli, BoundsErrorsPerInstance) {
  std::string many = "[";
  for (int i = 0; i < 5000; ++i) many += i ? ",\"x\"" : "\"x\"";
  many += "]\n";
  auto count = [](const std::string& line, size_t* marker) {
    Json parsed = *ParseJson(line);
    const Json& errors = *parsed.find("errors");
    *marker = errors.as_array().back().find("keyword")->as_string() == "maxErrors";
    return errors.size();
  };
  size_t marker = 0;
  CliRun r = Validate(R"({"items":{"type":"integer"}})", many);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(count(r.out, &marker), 101u);
  EXPECT_TRUE(marker);
  EXPECT_NE(r.out.find("... and more errors"), std::string::npos);
  r = Validate(R"({"items":{"type":"integer"}})", many, "--max-errors 3");
  EXPECT_EQ(count(r.out, &marker), 4u);
  EXPECT_TRUE(marker);
  r = Validate(R"({"items":{"type":"integer"}})", many, "--max-errors 0");
  EXPECT_EQ(count(r.out, &marker), 5000u);
  EXPECT_FALSE(marker);
  r = Validate(R"({"items":{"type":"integer"}})", "[\"a\",\"b\",\"c\"]\n", "--max-errors 3");
  EXPECT_EQ(count(r.out, &marker), 3u);  // exactly N: no marker
  EXPECT_FALSE(marker);
  for (const char* bad : {"-1", "x", "", "99999999999999999999"}) {
    r = Validate("{}", "1\n", std::string("--max-errors '") + bad + "'");
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--max-errors needs a whole number"), std::string::npos) << r.err;
  }
}

// The block reader prints exactly the validator's verdict per line, whatever
// the line endings, blank lines, block boundaries and line lengths.
TEST_F(ValidatorCli, PrintsTheValidatorsVerdictForEveryLine) {
  const std::string bench = std::string(STRUCTURE_CORPORA_DIR) + "/bench-schemas/";
  for (const char* name : {"s1_action", "s2_order", "s3_profile"}) {
    std::string schema = *ReadFile(bench + name + ".schema.json");
    auto validator = pipeline::CompileSchema(*ParseJson(schema));
    ASSERT_TRUE(validator.ok());
    std::string input, expected;
    for (int i = 0; i < 3000; ++i) {
      const char* kind = i % 3 == 0 ? ".invalid.json" : ".valid.json";
      std::string line = ToJson(*ParseJson(*ReadFile(bench + name + kind)));
      input += line + (i % 7 == 0 ? "\r\n" : "\n");
      if (i % 11 == 0) input += "  \n";
      pipeline::ValidationResult result = *(*validator)->ValidateText(line);
      if (result.valid) {
        expected += "{\"valid\":true}\n";
        continue;
      }
      Json errors = Json::MakeArray();
      for (const pipeline::ValidationError& e : result.errors) {
        Json item = Json::MakeObject();
        item.set("instancePath", e.instance_path);
        item.set("schemaPath", e.schema_path);
        item.set("keyword", e.keyword);
        item.set("params", e.params);
        item.set("message", e.message);
        errors.push_back(std::move(item));
      }
      Json out = Json::MakeObject();
      out.set("valid", false);
      out.set("errors", std::move(errors));
      expected += ToJson(out) + "\n";
    }
    input += "{\"no\": json";  // a last line without a newline
    CliRun r = Validate(schema, input);
    EXPECT_EQ(r.exit_code, 1);
    ASSERT_GT(r.out.size(), expected.size()) << name;
    EXPECT_EQ(r.out.substr(0, expected.size()), expected) << name;
    EXPECT_EQ(r.out.substr(expected.size(), 23), "{\"valid\":false,\"error\":") << name;
  }
}

// The suite's optional bignum.json (2020-12 and draft 7) through the CLI, and
// integers compared exactly beyond 2^53 and 64 bits.
TEST_F(ValidatorCli, PassesTheSuitesBignumTestsAndComparesIntegersExactly) {
  const std::string suite =
      std::string(STRUCTURE_CORPORA_DIR) + "/json-schema-test-suite/tests/";
  int checked = 0;
  for (const char* file : {"draft2020-12/optional/bignum.json", "draft7/optional/bignum.json"}) {
    auto groups = ParseJson(*ReadFile(suite + file));
    ASSERT_TRUE(groups.ok()) << groups.status().message();
    for (const Json& group : groups->as_array()) {
      std::string input, expected;
      for (const Json& test : group.find("tests")->as_array()) {
        input += ToJson(*test.find("data")) + "\n";
        expected += test.find("valid")->as_bool() ? "t" : "f";
      }
      CliRun r = Validate(ToJson(*group.find("schema")), input);
      std::string got;
      std::istringstream lines(r.out);
      for (std::string line; std::getline(lines, line);)
        got += line == "{\"valid\":true}" ? "t" : "f";
      EXPECT_EQ(got, expected) << file << ": " << group.find("description")->as_string() << "\n"
                               << r.out << r.err;
      checked += static_cast<int>(expected.size());
    }
  }
  EXPECT_GE(checked, 18);
  auto verdicts = [&](const std::string& schema, const std::string& input) {
    std::string got;
    std::istringstream lines(Validate(schema, input).out);
    for (std::string line; std::getline(lines, line);)
      got += line == "{\"valid\":true}" ? "t" : "f";
    return got;
  };
  EXPECT_EQ(verdicts(R"({"minimum":9007199254740993})",
                     "9007199254740992\n9007199254740993\n9007199254740994\n"),
            "ftt");
  EXPECT_EQ(verdicts(R"({"maximum":18446744073709551614})",
                     "18446744073709551615\n18446744073709551614\n"),
            "ft");
  EXPECT_EQ(verdicts(R"({"exclusiveMaximum":18446744073709551616})",
                     "18446744073709551615\n18446744073709551616\n"),
            "tf");
  EXPECT_EQ(verdicts(R"({"exclusiveMinimum":-9223372036854775809})", "-9223372036854775808\n"),
            "t");
  EXPECT_EQ(verdicts(R"({"const":9007199254740993})", "9007199254740992\n9007199254740993\n"),
            "ft");
  EXPECT_EQ(verdicts(R"({"enum":[18446744073709551615]})",
                     "18446744073709551614\n18446744073709551615\n"),
            "ft");
  EXPECT_EQ(verdicts(R"({"type":"integer"})",
                     "123456789012345678901234567890\n-123456789012345678901234567890\n"),
            "tt");
  // Beyond 64 bits, integers that share a nearest double still compare exactly, and the
  // message quotes the digits the user wrote.
  EXPECT_EQ(verdicts(R"({"items":{"minimum":-18446744073709551615}})",
                     "[-18446744073709551600,-18446744073709551615]\n"
                     "[-18446744073709551600,-18446744073709551616]\n"),
            "tf");
  EXPECT_EQ(verdicts(R"({"uniqueItems":true})",
                     "[18446744073709551617,18446744073709551618]\n"
                     "[18446744073709551617,18446744073709551617]\n"),
            "tf");
  CliRun low = Validate(R"({"minimum":-18446744073709551615})", "-18446744073709551616\n");
  EXPECT_NE(low.out.find("(was -18446744073709551616)"), std::string::npos) << low.out;
  // The limit is quoted as the schema wrote it too, in the message and in params.
  EXPECT_NE(low.out.find("value must be >= -18446744073709551615 (was"), std::string::npos)
      << low.out;
  EXPECT_NE(low.out.find("\"limit\":-18446744073709551615}"), std::string::npos) << low.out;
}

TEST_F(ValidatorCli, ValidatesLinesLongerThanOneBlock) {
  std::string big(3 << 20, 'a');
  CliRun r = Validate(R"({"maxLength":3145727})", "\"" + big + "\"\n1\n\"" + big + "\"");
  EXPECT_EQ(r.exit_code, 1);
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_NE(line.find("maxLength"), std::string::npos);
  std::getline(lines, line);
  EXPECT_EQ(line, "{\"valid\":true}");
  std::getline(lines, line);
  EXPECT_NE(line.find("maxLength"), std::string::npos);
  EXPECT_FALSE(std::getline(lines, line));
}

}  // namespace
}  // namespace structure
