// `structure serve` under clients that never finish a request: the [server] connection keys
// reach the HTTP server, and /healthz answers while the connection cap is reached.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <thread>
#include <vector>

#include "server/server_config.h"
#include "tests/server/http_client.h"
#include "tests/support/child_process.h"

namespace structure::testing {
namespace {

int Connect(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  return fd;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(ConnectionLimitsTest, HealthzAnswersWhileSlowClientsHoldEveryConnection) {
  std::string dir = ::testing::TempDir();
  std::string config = dir + "/limits_serve.toml";
  std::string log = dir + "/limits_serve.stderr";
  std::ofstream(config) << "[server]\nmax_connections = 8\nheader_timeout_ms = 600000\n";
  std::string error;
  auto serve = ChildProcess::StartListening(
      {STRUCTURE_BINARY, "serve", "--config", config, "--port", "0", "--database", ":memory:"},
      std::chrono::seconds(60), &error, log);
  ASSERT_NE(serve, nullptr) << error;
  std::vector<int> slow;
  for (int i = 0; i < 20; ++i) {  // more than the cap, each one header line and no more
    slow.push_back(Connect(serve->port()));
    send(slow.back(), "GET /healthz HTTP/1.1\r\n", 23, MSG_NOSIGNAL);
  }
  for (int i = 0; i < 3; ++i) {
    HttpReply r = Http("GET", serve->base_url() + "/healthz");
    EXPECT_EQ(r.status, 200) << r.body;
  }
  for (int fd : slow) close(fd);
  serve->Stop(std::chrono::seconds(30));
  std::string text = ReadAll(log);
  EXPECT_NE(text.find("connection limit 8 reached"), std::string::npos) << text;
  size_t first = text.find("connection limit");
  EXPECT_EQ(text.find("connection limit", first + 1), std::string::npos) << "logged once: " << text;
}

TEST(ConnectionLimitsTest, ConfigKeysAreCheckedAndDefaultsDocumented) {
  auto c = server::ParseServerConfig("", "s.toml");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->limits.header_timeout_ms, 10000);
  EXPECT_EQ(c->limits.body_timeout_ms, 30000);
  EXPECT_EQ(c->limits.idle_timeout_ms, 60000);
  EXPECT_EQ(c->limits.max_connections, 10000u);
  EXPECT_EQ(c->limits.max_requests_per_connection, 1000u);
  c = server::ParseServerConfig(
      "[server]\nheader_timeout_ms = 2000\nbody_timeout_ms = 3000\nidle_timeout_ms = 4000\n"
      "max_connections = 5\nmax_requests_per_connection = 6\n",
      "s.toml");
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->limits.header_timeout_ms, 2000);
  EXPECT_EQ(c->limits.body_timeout_ms, 3000);
  EXPECT_EQ(c->limits.idle_timeout_ms, 4000);
  EXPECT_EQ(c->limits.max_connections, 5u);
  EXPECT_EQ(c->limits.max_requests_per_connection, 6u);
  c = server::ParseServerConfig("[server]\nheader_timeout_ms = 5\n", "s.toml");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(),
            "s.toml:2: server.header_timeout_ms: must be 100..3600000 (was 5)");
  c = server::ParseServerConfig("[server]\nmax_connections = 0\n", "s.toml");
  EXPECT_FALSE(c.ok());
}

}  // namespace
}  // namespace structure::testing
