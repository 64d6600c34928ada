// HttpServer against clients that never finish: read deadlines (a header sent one line at a
// time, a body shorter than its Content-Length, an idle keep-alive connection), the keep-alive
// request limit and the connection cap, over raw loopback sockets.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "http/http_server.h"
#include "tests/support/http_server_harness.h"

namespace structure::http {
namespace {

using testing::Running;

using std::chrono::milliseconds;

// Every wait here is an upper bound far above the deadlines under test (no timed assertions).
constexpr int kPatienceMs = 60000;

int Connect(uint16_t port) { return testing::Connect(port); }

bool Send(int fd, const std::string& s) {
  return send(fd, s.data(), s.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(s.size());
}

// Reads until the peer closes or `timeout_ms` passes. True when it closed.
bool ReadUntilClosed(int fd, std::string* got, int timeout_ms = kPatienceMs) {
  auto deadline = std::chrono::steady_clock::now() + milliseconds(timeout_ms);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;
    char buf[4096];
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) return true;
    got->append(buf, static_cast<size_t>(n));
  }
  return false;
}

// Reads one complete response (header + Content-Length body); "" when the peer closed first.
std::string ReadResponse(int fd) {
  std::string buf;
  char chunk[4096];
  while (true) {
    size_t end = buf.find("\r\n\r\n");
    if (end != std::string::npos) {
      size_t cl = buf.find("Content-Length: ");
      size_t len = cl == std::string::npos || cl > end ? 0 : std::stoul(buf.substr(cl + 16));
      if (buf.size() >= end + 4 + len) return buf;
    }
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, kPatienceMs) <= 0) return "";
    ssize_t n = recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return "";
    buf.append(chunk, static_cast<size_t>(n));
  }
}

Handler Ok(std::atomic<int>* calls) {
  return [calls](HttpRequest req, Responder respond) {
    ++*calls;
    HttpResponse r;
    r.body = req.path;
    respond(std::move(r));
  };
}

TEST(HttpServerLimitsTest, HeaderSentOneLineAtATimeIsCutOffAtTheHeaderTimeout) {
  std::atomic<int> calls{0};
  ServerOptions o;
  o.header_timeout = milliseconds(300);
  Running s(Ok(&calls), o);
  int fd = Connect(s.server().port());
  ASSERT_TRUE(Send(fd, "GET / HTTP/1.1\r\nHost: h\r\n"));
  // Slowloris: a header line every 100 ms would go on for 60 s; the server must hang up first.
  bool closed = false;
  for (int i = 0; i < 600 && !closed; ++i) {
    std::string got;
    closed = !Send(fd, "X-Slow: " + std::to_string(i) + "\r\n") || ReadUntilClosed(fd, &got, 100);
  }
  EXPECT_TRUE(closed) << "a header that never ends held the connection open";
  EXPECT_EQ(calls.load(), 0);
  close(fd);
}

TEST(HttpServerLimitsTest, BodyShorterThanItsContentLengthIsCutOffAtTheBodyTimeout) {
  std::atomic<int> calls{0};
  ServerOptions o;
  o.body_timeout = milliseconds(300);
  Running s(Ok(&calls), o);
  int fd = Connect(s.server().port());
  ASSERT_TRUE(Send(fd, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\n0123456789"));
  std::string got;
  EXPECT_TRUE(ReadUntilClosed(fd, &got)) << "a body that never ends held the connection open";
  EXPECT_EQ(got, "");  // no answer: the request never completed
  EXPECT_EQ(calls.load(), 0);
  close(fd);
}

TEST(HttpServerLimitsTest, IdleKeepAliveConnectionIsClosedAtTheIdleTimeout) {
  std::atomic<int> calls{0};
  ServerOptions o;
  o.idle_timeout = milliseconds(300);
  Running s(Ok(&calls), o);
  int fd = Connect(s.server().port());
  ASSERT_TRUE(Send(fd, "GET /a HTTP/1.1\r\nHost: h\r\n\r\n"));
  EXPECT_NE(ReadResponse(fd).find("200 OK"), std::string::npos);
  std::string got;
  EXPECT_TRUE(ReadUntilClosed(fd, &got)) << "an idle keep-alive connection stayed open";
  EXPECT_EQ(calls.load(), 1);
  close(fd);
}

TEST(HttpServerLimitsTest, IdleTimeBetweenRequestsIsNotChargedToTheHeaderTimeout) {
  std::atomic<int> calls{0};
  ServerOptions o;
  o.header_timeout = milliseconds(200);
  o.idle_timeout = milliseconds(kPatienceMs);
  Running s(Ok(&calls), o);
  int fd = Connect(s.server().port());
  ASSERT_TRUE(Send(fd, "GET /a HTTP/1.1\r\nHost: h\r\n\r\n"));
  EXPECT_NE(ReadResponse(fd).find("200 OK"), std::string::npos);
  std::this_thread::sleep_for(milliseconds(1000));  // idle for five header timeouts
  ASSERT_TRUE(Send(fd, "GET /b HTTP/1.1\r\nHost: h\r\n\r\n"));
  EXPECT_NE(ReadResponse(fd).find("200 OK"), std::string::npos);
  EXPECT_EQ(calls.load(), 2);
  close(fd);
}

TEST(HttpServerLimitsTest, KeepAliveEndsAfterMaxRequestsPerConnection) {
  std::atomic<int> calls{0};
  ServerOptions o;
  o.max_requests_per_connection = 3;
  Running s(Ok(&calls), o);
  int fd = Connect(s.server().port());
  for (int i = 1; i <= 3; ++i) {
    ASSERT_TRUE(Send(fd, "GET /r HTTP/1.1\r\nHost: h\r\n\r\n"));
    std::string r = ReadResponse(fd);
    EXPECT_NE(r.find("200 OK"), std::string::npos) << i;
    EXPECT_EQ(r.find("Connection: close") != std::string::npos, i == 3) << r;
  }
  std::string got;
  EXPECT_TRUE(ReadUntilClosed(fd, &got));
  EXPECT_EQ(calls.load(), 3);
  close(fd);
}

TEST(HttpServerLimitsTest, AtTheCapANewConnectionClosesTheOldestIdleOne) {
  std::atomic<int> calls{0};
  std::mutex mu;
  std::vector<std::string> logs;
  ServerOptions o;
  o.max_connections = 4;
  o.header_timeout = milliseconds(kPatienceMs);
  o.log = [&](const std::string& line) {
    std::lock_guard<std::mutex> lock(mu);
    logs.push_back(line);
  };
  Running s(Ok(&calls), o);
  std::vector<int> slow;
  for (int i = 0; i < 4; ++i) {
    slow.push_back(Connect(s.server().port()));
    ASSERT_TRUE(Send(slow.back(), "GET / HTTP/1.1\r\n"));  // and never the rest
    // Accepted in order, so "oldest" is well defined.
    while (s.server().open_connections() < static_cast<size_t>(i + 1)) {
      std::this_thread::sleep_for(milliseconds(5));
    }
  }
  auto wait_for = [&](size_t open) {
    while (s.server().open_connections() != open) std::this_thread::sleep_for(milliseconds(5));
  };
  for (int round = 0; round < 2; ++round) {
    if (round == 1) {  // back at the cap with a fifth slow client
      wait_for(3);
      slow.push_back(Connect(s.server().port()));
      ASSERT_TRUE(Send(slow.back(), "GET / HTTP/1.1\r\n"));
      wait_for(4);
    }
    int health = Connect(s.server().port());
    ASSERT_TRUE(Send(health, "GET /healthz HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"));
    EXPECT_NE(ReadResponse(health).find("/healthz"), std::string::npos) << round;
    close(health);
    std::string got;
    EXPECT_TRUE(ReadUntilClosed(slow[round], &got)) << "the oldest idle connection stayed open";
  }
  EXPECT_EQ(s.server().capped_connections(), 2u);
  std::lock_guard<std::mutex> lock(mu);
  ASSERT_EQ(logs.size(), 1u);  // once, not once per connection
  EXPECT_NE(logs[0].find("connection limit 4 reached"), std::string::npos) << logs[0];
  for (int fd : slow) close(fd);
}

// Answers /healthz at once and holds every other request's responder until Release().
struct Holder {
  Handler handler() {
    return [this](HttpRequest req, Responder respond) {
      if (req.path == "/healthz") return respond(HttpResponse{});
      std::lock_guard<std::mutex> lock(mu);
      held.push_back(std::move(respond));
    };
  }
  // Opens n connections whose requests are held; returns once the handler has all of them.
  std::vector<int> Fill(uint16_t port, size_t n) {
    std::vector<int> busy;
    for (size_t i = 0; i < n; ++i) {
      busy.push_back(Connect(port));
      EXPECT_TRUE(Send(busy.back(), "GET /hold HTTP/1.1\r\nHost: h\r\n\r\n"));
    }
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(mu);
        if (held.size() == n) break;
      }
      std::this_thread::sleep_for(milliseconds(5));
    }
    return busy;
  }
  // Answers what is held; responders hold their connection, so none may outlive the server.
  void Release() {
    std::lock_guard<std::mutex> lock(mu);
    for (auto& respond : held) respond(HttpResponse{});
    held.clear();
  }
  std::mutex mu;
  std::vector<Responder> held;
};

TEST(HttpServerLimitsTest, AtTheCapWithEveryConnectionBusyANewOneGets503) {
  Holder holder;
  ServerOptions o;
  o.max_connections = 2;
  Running s(holder.handler(), o);
  std::vector<int> busy = holder.Fill(s.server().port(), 2);
  int extra = Connect(s.server().port());
  std::string got;
  EXPECT_TRUE(ReadUntilClosed(extra, &got));
  EXPECT_NE(got.find("HTTP/1.1 503"), std::string::npos) << got;
  EXPECT_NE(got.find("Retry-After: 1"), std::string::npos) << got;
  close(extra);
  holder.Release();
  for (int i = 0; i < 2; ++i) {
    EXPECT_NE(ReadResponse(busy[i]).find("200 OK"), std::string::npos)
        << "held answers still arrive";
    close(busy[i]);
  }
}

// Over the cap, reserved_connections more connections are kept for reserved_paths: a health
// probe is answered while every connection is busy, anything else on such a connection gets
// 503, and past the reserved ones a new connection is refused as before.
TEST(HttpServerLimitsTest, AReservedSlotAnswersHealthProbesWhileEveryConnectionIsBusy) {
  Holder holder;
  ServerOptions o;
  o.max_connections = 2;
  o.reserved_connections = 1;
  o.reserved_paths = {"/healthz"};
  Running s(holder.handler(), o);
  std::vector<int> busy = holder.Fill(s.server().port(), 2);
  for (const char* method : {"GET", "HEAD"}) {
    int probe = Connect(s.server().port());
    ASSERT_TRUE(Send(probe, std::string(method) + " /healthz HTTP/1.1\r\nHost: h\r\n\r\n"));
    std::string got;
    EXPECT_TRUE(ReadUntilClosed(probe, &got)) << "a reserved connection closes after its answer";
    EXPECT_EQ(got.rfind("HTTP/1.1 200", 0), 0u) << method << ": " << got;
    close(probe);
  }
  int other = Connect(s.server().port());
  ASSERT_TRUE(Send(other, "GET /hold HTTP/1.1\r\nHost: h\r\n\r\n"));
  std::string got;
  EXPECT_TRUE(ReadUntilClosed(other, &got));
  EXPECT_EQ(got.rfind("HTTP/1.1 503", 0), 0u) << got;
  EXPECT_NE(got.find("too_many_connections"), std::string::npos) << got;
  // SDKs retry instead of waiting: Retry-After, and OpenAI's error object for the OpenAI ones.
  EXPECT_NE(got.find("\r\nRetry-After: 1\r\n"), std::string::npos) << got;
  EXPECT_NE(got.find(R"("error":{"message":"the server is at its connection limit)"),
            std::string::npos)
      << got;
  close(other);
  // The one reserved slot taken by a client that sends nothing: the next one is refused.
  auto open_is = [&](size_t n) {
    auto deadline = std::chrono::steady_clock::now() + milliseconds(kPatienceMs);
    while (s.server().open_connections() != n && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(milliseconds(5));
    }
    return s.server().open_connections() == n;
  };
  ASSERT_TRUE(open_is(2)) << "the probes' connections are gone";
  int silent = Connect(s.server().port());
  ASSERT_TRUE(open_is(3)) << "the silent client holds the reserved slot";
  int refused = Connect(s.server().port());
  got.clear();
  EXPECT_TRUE(ReadUntilClosed(refused, &got));
  EXPECT_NE(got.find("HTTP/1.1 503"), std::string::npos) << got;
  close(refused);
  close(silent);
  holder.Release();
  for (int fd : busy) close(fd);
}

}  // namespace
}  // namespace structure::http
