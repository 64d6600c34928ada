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
  const std::string suite = std::string(STRUCTURE_CORPORA_DIR) + "/json-schema-test-suite/tests/";
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

// The verdicts of validate's output, one character per line: '1' valid, '0' not.
std::string Verdicts(const std::string& out) {
  std::string got;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    got += line.rfind("{\"valid\":true}", 0) == 0 ? '1' : '0';
  }
  return got;
}

// Issue 44 item 8: the schema and line limits are flags. A 9 MB schema of 100 000 $defs is
// refused by default with a message that names --max-schema-bytes, and validates with it.
TEST_F(ValidatorCli, SchemaAndLineLimitsAreFlagsNamedInTheirMessages) {
  std::string schema = R"({"$defs":{)";
  for (int i = 0; i < 100000; ++i) {
    if (i > 0) schema += ",";
    schema += "\"d" + std::to_string(i) + "\":{\"type\":\"object\",\"properties\":{\"n\":" +
              "{\"type\":\"integer\",\"description\":\"a definition of the schema\"}}}";
  }
  schema += R"(},"$ref":"#/$defs/d99999"})";
  ASSERT_GT(schema.size(), size_t{9} << 20);
  CliRun refused = Validate(schema, "{\"n\":1}\n");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("larger than 1048576 bytes (the schema limit, --max-schema-bytes)"),
            std::string::npos)
      << refused.err;
  CliRun raised = Validate(schema, "{\"n\":1}\n{\"n\":1.5}\n", "--max-schema-bytes 20000000");
  EXPECT_EQ(raised.exit_code, 1) << raised.err;
  EXPECT_EQ(raised.out.substr(0, 15), "{\"valid\":true}\n") << raised.out;
  // --ref files have the same limit.
  Write(dir_ / "big.json", R"({"$id":"http://example.com/big","type":"integer","description":")" +
                               std::string(1100000, 'a') + "\"}");
  const std::string ref_schema = R"({"$ref":"http://example.com/big"})";
  CliRun ref = Validate(ref_schema, "1\n", "--ref " + (dir_ / "big.json").string());
  EXPECT_EQ(ref.exit_code, 2);
  EXPECT_NE(ref.err.find("(the schema limit, --max-schema-bytes)"), std::string::npos) << ref.err;
  CliRun ref_raised =
      Validate(ref_schema, "1\n1.5\n",
               "--ref " + (dir_ / "big.json").string() + " --max-schema-bytes 2000000");
  EXPECT_EQ(ref_raised.exit_code, 1) << ref_raised.err;
  EXPECT_EQ(Verdicts(ref_raised.out), "10") << ref_raised.out;
  // Instance lines: --max-line-bytes, named in the verdict of a longer line.
  CliRun line = Validate("{}", "[1,2,3,4,5,6,7,8,9]\n[1]\n", "--max-line-bytes 10");
  EXPECT_EQ(line.exit_code, 1);
  EXPECT_NE(line.out.find("a line is longer than 10 bytes (the limit of one line, "
                          "--max-line-bytes): skipped"),
            std::string::npos)
      << line.out;
  EXPECT_NE(line.out.find("\n{\"valid\":true}\n"), std::string::npos) << line.out;
  for (const char* bad : {"0", "-1", "x", "1073741825", "1e6", ""}) {
    CliRun r = Validate("{}", "1\n", std::string("--max-schema-bytes '") + bad + "'");
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--max-schema-bytes needs a number of bytes 1..1073741824"),
              std::string::npos)
        << r.err;
    r = Validate("{}", "1\n", std::string("--max-line-bytes '") + bad + "'");
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--max-line-bytes needs"), std::string::npos) << r.err;
  }
}

// Issue 44 item 21: where `structure validate` disagreed with the reference validators on
// real-world schemas.
// Draft 4 defines an integer as a number without a fraction part: 1.0 is not one (the suite's
// optional zeroTerminatedFloats). Later drafts define it by value; a big integer stays one.
TEST_F(ValidatorCli, Draft4IntegerHasNoFractionPart) {
  const std::string input = "1\n1.0\n-0.0\n1e2\n1.5\n123456789012345678901234567890\n";
  CliRun d4 =
      Validate(R"({"$schema":"http://json-schema.org/draft-04/schema#","type":"integer"})", input);
  EXPECT_EQ(Verdicts(d4.out), "100001") << d4.out << d4.err;
  CliRun flag = Validate(R"({"type":["integer","null"]})", input, "--draft 4");
  EXPECT_EQ(Verdicts(flag.out), "100001") << flag.out << flag.err;
  CliRun d4number = Validate(
      R"({"$schema":"http://json-schema.org/draft-04/schema#","type":["integer","number"]})",
      input);
  EXPECT_EQ(Verdicts(d4number.out), "111111") << d4number.out;
  CliRun d7 =
      Validate(R"({"$schema":"http://json-schema.org/draft-07/schema#","type":"integer"})", input);
  EXPECT_EQ(Verdicts(d7.out), "111101") << d7.out;
}

// A URI and an IRI begin with a scheme; only the -reference formats take a relative reference.
TEST_F(ValidatorCli, UriAndIriRequireAScheme) {
  const std::string input =
      "\"https://example.com/a?b#c\"\n\"urn:isbn:0451450523\"\n\"//example.com/a\"\n"
      "\"/a/b\"\n\"a/b\"\n\"\"\n\"https://\xe4\xbe\x8b\xe3\x81\x88.jp/\xe3\x83\x91\"\n"
      "\"/\xe3\x83\x91\"\n";
  EXPECT_EQ(Verdicts(Validate(R"({"format":"uri"})", input).out), "11000000");
  EXPECT_EQ(Verdicts(Validate(R"({"format":"iri"})", input).out), "11000010");
  EXPECT_EQ(Verdicts(Validate(R"({"format":"uri-reference"})", input).out), "11111100");
  EXPECT_EQ(Verdicts(Validate(R"({"format":"iri-reference"})", input).out), "11111111");
  EXPECT_EQ(Verdicts(Validate(R"({"format":"iri"})", input, "--no-format").out), "11111111");
}

// multipleOf with a fractional divisor decides as python-jsonschema and Ajv do: the quotient in
// doubles must be whole, with no tolerance (0.07 / 0.01 is 7.000000000000001).
TEST_F(ValidatorCli, MultipleOfAFractionAgreesWithTheReferenceValidators) {
  EXPECT_EQ(Verdicts(Validate(R"({"multipleOf":0.01})", "0.02\n0.07\n19.99\n1\n3\n").out), "10011");
  EXPECT_EQ(Verdicts(Validate(R"({"multipleOf":0.1})", "0.3\n1.1\n0.5\n").out), "011");
  EXPECT_EQ(Verdicts(Validate(R"({"multipleOf":0.0001})", "0.0075\n0.00751\n").out), "10");
  EXPECT_EQ(Verdicts(Validate(R"({"multipleOf":1.5})", "4.5\n35\n").out), "10");
  EXPECT_EQ(Verdicts(Validate(R"({"type":"integer","multipleOf":1e-8})", "12391239123\n").out),
            "1");
}

// The meta-schema of every supported draft resolves by its URL, with or without the '#'.
TEST_F(ValidatorCli, MetaSchemasOfEveryDraftResolveByTheirUrls) {
  const std::string input =
      "{\"type\":\"string\",\"minLength\":2}\n{\"type\":5}\n"
      "{\"minLength\":-1}\n";
  for (const std::string url :
       {"http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-04/schema",
        "http://json-schema.org/draft-06/schema#", "http://json-schema.org/draft-07/schema#",
        "https://json-schema.org/draft/2019-09/schema",
        "https://json-schema.org/draft/2020-12/schema"}) {
    CliRun r = Validate("{\"$ref\":\"" + url + "\"}", input);
    EXPECT_EQ(r.exit_code, 1) << url << ": " << r.err;
    EXPECT_EQ(Verdicts(r.out), "100") << url << ": " << r.out << r.err;
    // Also as the schema's own dialect, referring to itself.
    CliRun own =
        Validate("{\"$schema\":\"" + url + "\",\"properties\":{\"s\":{\"$ref\":\"" + url + "\"}}}",
                 "{\"s\":{\"type\":\"string\"}}\n{\"s\":{\"type\":5}}\n");
    EXPECT_EQ(Verdicts(own.out), "10") << url << ": " << own.out << own.err;
  }
}

}  // namespace
}  // namespace structure
