// `structure serve` under clients that never finish a request or never read their answers: the
// [server] connection keys reach the HTTP server, /healthz answers while the connection cap is
// reached, and clients that read nothing are dropped at the write timeout.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
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

// `receive_buffer` > 0: the socket's SO_RCVBUF, set before it connects.
int Connect(int port, int receive_buffer = 0) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (receive_buffer > 0) {
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  }
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

// A client that asks and never reads: a tiny receive buffer and many pipelined requests for the
// OpenAPI document, so the server's answers back up and its connection stays busy writing.
int NonReader(int port) {
  int fd = Connect(port, 1024);
  std::string requests;
  for (int i = 0; i < 50; ++i) requests += "GET /v1/openapi.json HTTP/1.1\r\nHost: h\r\n\r\n";
  EXPECT_EQ(send(fd, requests.data(), requests.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(requests.size()));
  return fd;
}

// Whether the server ended this connection (reset, or closed it after its answer).
bool ClosedByServer(int fd) {
  tcp_info info{};
  socklen_t size = sizeof info;
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) != 0) return true;
  return info.tcpi_state != TCP_ESTABLISHED;
}

std::unique_ptr<ChildProcess> Serve(const std::string& name, const std::string& server_table,
                                    const std::string& log) {
  std::string config = ::testing::TempDir() + "/" + name + ".toml";
  std::ofstream(config) << "[server]\n" << server_table;
  std::string error;
  auto serve = ChildProcess::StartListening(
      {STRUCTURE_BINARY, "serve", "--config", config, "--port", "0", "--database", ":memory:"},
      std::chrono::seconds(60), &error, log);
  EXPECT_NE(serve, nullptr) << error;
  return serve;
}

TEST(ConnectionLimitsTest, HealthzAnswersWhileSlowClientsHoldEveryConnection) {
  std::string log = ::testing::TempDir() + "/limits_serve.stderr";
  auto serve = Serve("limits_serve", "max_connections = 8\nheader_timeout_ms = 600000\n", log);
  ASSERT_NE(serve, nullptr);
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

// max_connections + 10 clients that read nothing while large answers are pending: every
// connection is busy writing, other requests get 503, and /healthz still answers 200 (a slot
// kept for health probes).
TEST(ConnectionLimitsTest, HealthzAnswersWhileClientsThatReadNothingHoldEveryConnection) {
  auto serve = Serve("pressure",
                     "max_connections = 50\nwrite_timeout_ms = 600000\nsend_buffer_bytes = 4096\n",
                     ::testing::TempDir() + "/pressure.stderr");
  ASSERT_NE(serve, nullptr);
  std::vector<int> stuck;
  for (int i = 0; i < 60; ++i) stuck.push_back(NonReader(serve->port()));
  // Bounded: until the server is saturated (a request that is no health probe gets 503).
  HttpReply busy;
  for (int i = 0; i < 600 && busy.status != 503; ++i) {
    busy = Http("GET", serve->base_url() + "/v1/openapi.json");
    if (busy.status != 503) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(busy.status, 503) << "60 clients that read nothing never filled 50 connections";
  EXPECT_NE(busy.body.find("too_many_connections"), std::string::npos) << busy.body;
  for (int i = 0; i < 3; ++i) {
    HttpReply health = Http("GET", serve->base_url() + "/healthz");
    EXPECT_EQ(health.status, 200) << health.body;
    EXPECT_EQ(Http("HEAD", serve->base_url() + "/healthz").status, 200);
  }
  for (int fd : stuck) close(fd);
  serve->Stop(std::chrono::seconds(30));
}

// The same clients against a short write timeout: every one of them is dropped (the bound is
// the test's, not a timing claim), and the server answers everyone again.
TEST(ConnectionLimitsTest, ClientsThatReadNothingAreDroppedAtTheWriteTimeout) {
  auto serve =
      Serve("drop", "max_connections = 50\nwrite_timeout_ms = 300\nsend_buffer_bytes = 4096\n",
            ::testing::TempDir() + "/drop.stderr");
  ASSERT_NE(serve, nullptr);
  std::vector<int> stuck;
  for (int i = 0; i < 60; ++i) stuck.push_back(NonReader(serve->port()));
  size_t open = stuck.size();
  for (int i = 0; i < 1200 && open > 0; ++i) {
    open = 0;
    for (int fd : stuck) open += ClosedByServer(fd) ? 0 : 1;
    if (open > 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(open, 0u) << "clients that read nothing were still connected after 60 s";
  EXPECT_EQ(Http("GET", serve->base_url() + "/v1/openapi.json").status, 200);
  for (int fd : stuck) close(fd);
  serve->Stop(std::chrono::seconds(30));
}

TEST(ConnectionLimitsTest, ConfigKeysAreCheckedAndDefaultsDocumented) {
  auto c = server::ParseServerConfig("", "s.toml");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->limits.header_timeout_ms, 10000);
  EXPECT_EQ(c->limits.body_timeout_ms, 30000);
  EXPECT_EQ(c->limits.idle_timeout_ms, 60000);
  EXPECT_EQ(c->limits.max_connections, 10000u);
  EXPECT_EQ(c->limits.max_requests_per_connection, 1000u);
  EXPECT_EQ(c->limits.write_timeout_ms, 30000);
  EXPECT_EQ(c->limits.send_buffer_bytes, 262144u);
  EXPECT_EQ(c->limits.health_connections, 2u);
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
            "s.toml:2:21: server.header_timeout_ms: must be 100..3600000 (was 5)");
  c = server::ParseServerConfig("[server]\nmax_connections = 0\n", "s.toml");
  EXPECT_FALSE(c.ok());
}

}  // namespace
}  // namespace structure::testing
