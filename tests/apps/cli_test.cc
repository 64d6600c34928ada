// Black-box tests of the `structure` binary's foundation commands.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "tests/support/shell_command.h"

namespace {

using structure::testing::CommandRun;

// Runs the binary through the shell with stderr folded into the output; `prefix` goes before
// it (an `env ...` command).
CommandRun Structure(const std::string& args, const std::string& prefix = "") {
  return structure::testing::RunShell(prefix + STRUCTURE_BINARY + " " + args + " 2>&1");
}

TEST(CliTest, VersionPrintsTheVersion) {
  CommandRun r = Structure("version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("structure ", 0), 0u);
}

TEST(CliTest, HelpListsCommands) {
  CommandRun r = Structure("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("config check"), std::string::npos);
  EXPECT_NE(r.out.find("version"), std::string::npos);
}

TEST(CliTest, UnknownCommandExitsTwo) {
  CommandRun r = Structure("frobnicate");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("unknown command 'frobnicate'"), std::string::npos);
}

TEST(CliTest, ConfigCheckPrintsEffectiveConfig) {
  // The example names OPENAI_API_KEY; config check makes run's checks, the key's among them.
  std::string check =
      std::string("config check ") + STRUCTURE_SOURCE_DIR + "/examples/structure.toml";
  // From the source tree: the example's registry_dir is relative to it.
  std::string in_tree = std::string("cd ") + STRUCTURE_SOURCE_DIR + " && ";
  CommandRun unset = Structure(check, in_tree + "env -u OPENAI_API_KEY ");
  EXPECT_EQ(unset.exit_code, 2) << unset.out;
  EXPECT_NE(unset.out.find("no API key: set OPENAI_API_KEY"), std::string::npos) << unset.out;
  CommandRun r = Structure(check, in_tree + "env OPENAI_API_KEY=sk-test ");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("\"maxConcurrency\": 256"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"apiKeyEnv\": \"OPENAI_API_KEY\""), std::string::npos);
}

TEST(CliTest, ConfigCheckWithoutFileShowsSimulatorDefault) {
  CommandRun r = Structure("config check");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("\"simulator\""), std::string::npos);
}

TEST(CliTest, ConfigCheckOnSyntaxErrorPrintsLocationAndExitsTwo) {
  std::string path = testing::TempDir() + "/bad_config.toml";
  std::ofstream(path) << "[structure]\nmaxLoops = = 3\n";
  CommandRun r = Structure("config check " + path);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find(path + ":2:"), std::string::npos) << r.out;
}

TEST(CliTest, ConfigCheckOnBadValueNamesItAndExitsTwo) {
  std::string path = testing::TempDir() + "/bad_value.toml";
  std::ofstream(path)
      << "[providers.p]\nkind = \"openai\"\n[providers.p.limits]\nmax_concurrency = -3\n";
  CommandRun r = Structure("config check " + path);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("providers.p.limits.max_concurrency: must be > 0 (was -3)"),
            std::string::npos)
      << r.out;
}

TEST(CliTest, UnknownFlagIsNamed) {
  CommandRun r = Structure("config check --bogus");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("unknown flag --bogus"), std::string::npos);
}

}  // namespace
