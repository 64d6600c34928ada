// `structure sim` as a process: --port 0 prints the port first, serves, and stops on SIGTERM.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include "tests/sim/sim_test_client.h"

namespace structure::sim {
namespace {

TEST(SimCliTest, PrintsPortServesStatsAndStopsOnSigterm) {
  int out[2];
  ASSERT_EQ(pipe(out), 0);
  std::string scenario =
      std::string(STRUCTURE_SOURCE_DIR) + "/examples/scenarios/retry_then_valid.json";
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    execl(STRUCTURE_BINARY, STRUCTURE_BINARY, "sim", "--port", "0", "--seed", "3", "--scenario",
          scenario.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  FILE* f = fdopen(out[0], "r");
  char line[128] = {};
  ASSERT_NE(fgets(line, sizeof line, f), nullptr);
  unsigned port = 0;
  ASSERT_EQ(std::sscanf(line, "listening on 127.0.0.1:%u", &port), 1) << line;
  auto health = testing::Get(static_cast<uint16_t>(port), "/health");
  EXPECT_EQ(health.status, 200);
  auto reply =
      testing::Post(static_cast<uint16_t>(port), "/v1/chat/completions", testing::OpenAiHeaders(),
                    R"({"model":"m","messages":[{"role":"user","content":"INV-7 total?"}]})");
  EXPECT_EQ(reply.status, 200) << reply.body;
  auto stats = testing::Get(static_cast<uint16_t>(port), "/stats");
  EXPECT_EQ(stats.json.find("requests")->find("openai")->as_int(), 1) << stats.body;
  kill(pid, SIGTERM);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  fclose(f);
}

TEST(SimCliTest, RejectsBadFlagsWithExitCode2) {
  std::string cmd = std::string(STRUCTURE_BINARY) + " sim --latency bogus 2>/dev/null";
  int rc = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(rc));
  EXPECT_EQ(WEXITSTATUS(rc), 2);
}

}  // namespace
}  // namespace structure::sim
