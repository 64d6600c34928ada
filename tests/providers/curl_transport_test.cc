#include "providers/transport/curl_transport.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include "providers/openai/openai_chat.h"
#include "tests/providers/golden.h"
#include "tests/providers/transport_inbox.h"
#include "tests/support/fake_tcp_server.h"
#include "tests/support/sim_process.h"

namespace structure::providers {
namespace {

int UnusedPort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a));
  socklen_t len = sizeof(a);
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

HttpRequest SimCall(const std::string& base_url, const std::string& text) {
  Endpoint e;
  e.base_url = base_url;
  e.api_key = "sk-test";
  ProviderCall c = testing::BasicCall();
  c.turns[0].text = text;
  return *openai_chat::BuildRequest(c, e);
}

TEST(CurlTransportTest, CompletesRequestsAndReusesConnections) {
  std::string error;
  auto sim = structure::testing::StartSim(STRUCTURE_BINARY, {"--latency-ms", "5"}, &error);
  ASSERT_TRUE(sim) << error;
  Inbox inbox;
  auto t = MakeCurlTransport(inbox.Sink());
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  for (uint64_t id = 1; id <= 20; ++id) (*t)->Start(id, SimCall(sim->base_url(), "Ada, 36"));
  ASSERT_TRUE(inbox.WaitFor(20));
  std::set<uint64_t> ids;
  for (const Completion& c : inbox.done) {
    ids.insert(c.id);
    EXPECT_EQ(c.response.status, 200) << c.response.error_text << c.response.body;
    EXPECT_FALSE(c.response.Header("content-type").empty());
    auto reply = openai_chat::ParseReply(c.response);
    EXPECT_TRUE(reply.ok()) << reply.status().ToString();
  }
  EXPECT_EQ(ids.size(), 20u);
  (*t)->Shutdown();
}

// More transfers than one shard holds (64): every one completes, in a first wave that opens the
// connections and in a second one on kept-alive connections; each shard's completions reach the
// sink as a batch of their own (one batch of every shard's would hold up to 300).
void CompletesTwoWavesOverShards(const CurlOptions& options) {
  std::string error;
  auto sim = structure::testing::StartSim(STRUCTURE_BINARY, {"--latency-ms", "50"}, &error);
  ASSERT_TRUE(sim) << error;
  Inbox inbox;
  auto t = MakeCurlTransport(inbox.Sink(), options);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  constexpr uint64_t kWave = 300;
  for (uint64_t id = 1; id <= kWave; ++id) (*t)->Start(id, SimCall(sim->base_url(), "Ada, 36"));
  ASSERT_TRUE(inbox.WaitFor(kWave));
  for (uint64_t id = kWave + 1; id <= 2 * kWave; ++id) {
    (*t)->Start(id, SimCall(sim->base_url(), "Ada, 36"));
  }
  ASSERT_TRUE(inbox.WaitFor(2 * kWave));
  std::set<uint64_t> ids;
  for (const Completion& c : inbox.done) {
    ids.insert(c.id);
    EXPECT_EQ(c.response.status, 200) << c.response.error_text;
  }
  EXPECT_EQ(ids.size(), 2 * kWave);
  EXPECT_LE(inbox.largest_batch, 64u);
  (*t)->Shutdown();
}

TEST(CurlTransportTest, SpreadsTransfersOverShardsAndReusesTheirConnections) {
  CompletesTwoWavesOverShards(CurlOptions{});
}

// The I/O thread sleeping after busy turns (base/batch_window.h) still completes every
// transfer once.
TEST(CurlTransportTest, ABatchWindowCompletesEveryTransferOnce) {
  CurlOptions o;
  o.batch_window = std::chrono::microseconds(2000);
  CompletesTwoWavesOverShards(o);
}

TEST(CurlTransportTest, ReportsRefusedConnectionAndTimeout) {
  Inbox inbox;
  auto t = MakeCurlTransport(inbox.Sink());
  ASSERT_TRUE(t.ok());
  (*t)->Start(1, SimCall("http://127.0.0.1:" + std::to_string(UnusedPort()), "x"));
  ASSERT_TRUE(inbox.WaitFor(1));
  EXPECT_EQ(inbox.done[0].response.error, TransportError::kConnect);
  EXPECT_EQ(inbox.done[0].response.status, 0);

  std::string error;
  auto sim = structure::testing::StartSim(STRUCTURE_BINARY, {"--latency-ms", "3000"}, &error);
  ASSERT_TRUE(sim) << error;
  HttpRequest slow = SimCall(sim->base_url(), "x");
  slow.timeout_ms = 100;
  (*t)->Start(2, slow);
  HttpRequest cancelled = SimCall(sim->base_url(), "y");
  (*t)->Start(3, cancelled);
  (*t)->Cancel(3);
  ASSERT_TRUE(inbox.WaitFor(2));
  EXPECT_EQ(inbox.done[1].id, 2u);
  EXPECT_EQ(inbox.done[1].response.error, TransportError::kTimeout);
  (*t)->Shutdown();  // with nothing left in flight; id 3 never completes
  EXPECT_EQ(inbox.done.size(), 2u);
}

// A loopback HTTP/1.1 server that answers each request with its own text (request line,
// headers and body) and closes the connection.
class EchoServer {
 public:
  EchoServer() {
    uint16_t port = 0;
    fd_ = structure::testing::LoopbackListener(&port);
    port_ = port;
    thread_ = std::thread([this] {
      for (int c; (c = accept(fd_, nullptr, nullptr)) >= 0; close(c)) Answer(c);
    });
  }
  ~EchoServer() {
    shutdown(fd_, SHUT_RDWR);
    thread_.join();
    close(fd_);
  }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

 private:
  static void Answer(int c) {
    std::string in;
    char buf[4096];
    size_t need = std::string::npos;
    while (need == std::string::npos || in.size() < need) {
      ssize_t n = read(c, buf, sizeof(buf));
      if (n <= 0) return;
      in.append(buf, static_cast<size_t>(n));
      size_t end = in.find("\r\n\r\n");
      if (need == std::string::npos && end != std::string::npos) {
        size_t cl = in.find("Content-Length: ");
        need = end + 4 + (cl < end ? std::stoul(in.substr(cl + 16)) : 0);
      }
    }
    std::string out =
        "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: " + std::to_string(in.size()) +
        "\r\n\r\n" + in;
    (void)!write(c, out.data(), out.size());
  }
  int fd_ = -1;
  int port_ = 0;
  std::thread thread_;
};

// One transfer at a time, so every transfer runs on the same reused easy handle: each one
// carries its own method, URL, headers and body, never the previous transfer's.
TEST(CurlTransportTest, ReusedHandleSendsOnlyEachTransfersOwnRequest) {
  EchoServer server;
  Inbox inbox;
  auto t = MakeCurlTransport(inbox.Sink());
  ASSERT_TRUE(t.ok());
  auto request = [&](std::string method, std::string path, HttpHeaders headers, std::string body) {
    HttpRequest r;
    r.method = std::move(method);
    r.url = server.url(path);
    r.headers = std::move(headers);
    r.body = std::move(body);
    r.timeout_ms = 10'000;
    return r;
  };
  std::vector<HttpRequest> requests = {
      request("POST", "/a", {{"X-One", "1"}}, "first body"),
      request("GET", "/b", {{"X-Two", "2"}}, ""),
      request("POST", "/c", {{"X-One", "1"}}, "third"),
      request("DELETE", "/d", {}, ""),
      request("POST", "/a", {{"X-Two", "2"}}, "fifth"),
  };
  for (size_t i = 0; i < requests.size(); ++i) {
    (*t)->Start(i + 1, requests[i]);
    ASSERT_TRUE(inbox.WaitFor(i + 1));
    const HttpResponse& got = inbox.done[i].response;
    ASSERT_EQ(got.status, 200) << got.error_text;
    const HttpRequest& sent = requests[i];
    std::string path = sent.url.substr(sent.url.find('/', 7));
    EXPECT_EQ(got.body.rfind(sent.method + " " + path + " HTTP/1.1\r\n", 0), 0u) << got.body;
    for (const char* name : {"X-One", "X-Two"}) {
      bool wanted = !sent.headers.empty() && sent.headers[0].first == name;
      EXPECT_EQ(got.body.find(std::string(name) + ": ") != std::string::npos, wanted)
          << name << " in " << got.body;
    }
    EXPECT_EQ(got.body.substr(got.body.find("\r\n\r\n") + 4), sent.body);
  }
  (*t)->Shutdown();
}

TEST(CurlTransportTest, ShutdownWithTransfersInFlightDoesNotHang) {
  std::string error;
  auto sim = structure::testing::StartSim(STRUCTURE_BINARY, {"--latency-ms", "5000"}, &error);
  ASSERT_TRUE(sim) << error;
  Inbox inbox;
  auto t = MakeCurlTransport(inbox.Sink());
  ASSERT_TRUE(t.ok());
  for (uint64_t id = 1; id <= 10; ++id) (*t)->Start(id, SimCall(sim->base_url(), "x"));
  t->reset();  // the destructor stops and joins
  EXPECT_TRUE(inbox.done.empty());
}

}  // namespace
}  // namespace structure::providers
