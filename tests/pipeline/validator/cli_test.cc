// `structure validate`: spawns the built binary on temp files and checks lines and exit codes.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "base/json.h"

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
    dir_ = fs::temp_directory_path() / ("validator_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  CliRun Validate(const std::string& schema, const std::string& input, const std::string& flags = "") {
    Write(dir_ / "schema.json", schema);
    Write(dir_ / "in.jsonl", input);
    std::string cmd = std::string(STRUCTURE_BINARY) + " validate --schema " + (dir_ / "schema.json").string() +
                      " " + flags + " < " + (dir_ / "in.jsonl").string() + " > " + (dir_ / "out").string() +
                      " 2> " + (dir_ / "err").string();
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
  EXPECT_NE(parsed->find("error")->as_string().find("invalid JSON"), std::string::npos);
  EXPECT_EQ(second, "{\"valid\":true}");
}

TEST_F(ValidatorCli, ExitsTwoWithMessageForBadSchema) {
  CliRun r = Validate("{\"type\": ", "1\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("schema.json"), std::string::npos) << r.err;
  CliRun strict = Validate(R"({"minLength":"x"})", "1\n", "--strict");
  EXPECT_EQ(strict.exit_code, 2);
  EXPECT_NE(strict.err.find("/minLength"), std::string::npos) << strict.err;
}

TEST_F(ValidatorCli, ExitsTwoForUsageErrors) {
  Write(dir_ / "in.jsonl", "1\n");
  std::string cmd = std::string(STRUCTURE_BINARY) + " validate < " + (dir_ / "in.jsonl").string() + " > /dev/null 2> " +
                    (dir_ / "err").string();
  int status = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(Slurp(dir_ / "err").find("--schema"), std::string::npos);
}

TEST_F(ValidatorCli, FormatCanBeSwitchedOff) {
  const char* schema = R"({"format":"date"})";
  EXPECT_EQ(Validate(schema, "\"2024-02-30\"\n").exit_code, 1);
  EXPECT_EQ(Validate(schema, "\"2024-02-30\"\n", "--no-format").exit_code, 0);
}

}  // namespace
}  // namespace structure
