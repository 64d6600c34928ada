// HttpServer over raw loopback sockets: keep-alive, delayed answers, limits, 100-continue,
// resets, paced bodies, bad requests and graceful stop.
#include "http/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <thread>

#include "tests/support/http_server_harness.h"

namespace structure::http {
namespace {

using testing::Running;

int Connect(uint16_t port) { return testing::Connect(port, 5); }

void SendAll(int fd, const std::string& s) {
  ASSERT_EQ(send(fd, s.data(), s.size(), MSG_NOSIGNAL), static_cast<ssize_t>(s.size()));
}

// Reads one response with a Content-Length body; returns "" on EOF/error before it completes.
std::string ReadResponse(int fd, std::string* rest = nullptr) {
  std::string buf = rest ? *rest : "";
  char chunk[4096];
  while (true) {
    size_t end = buf.find("\r\n\r\n");
    if (end != std::string::npos) {
      size_t cl = buf.find("Content-Length: ");
      size_t len = cl == std::string::npos || cl > end ? 0 : std::stoul(buf.substr(cl + 16));
      if (buf.size() >= end + 4 + len) {
        if (rest) *rest = buf.substr(end + 4 + len);
        return buf.substr(0, end + 4 + len);
      }
    }
    ssize_t n = recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return "";
    buf.append(chunk, static_cast<size_t>(n));
  }
}

Handler Echo(std::atomic<int>* calls = nullptr) {
  return [calls](HttpRequest req, Responder respond) {
    if (calls) ++*calls;
    HttpResponse r;
    r.headers.emplace_back("X-Path", req.path);
    r.body = req.method + " " + req.target + " " + req.body;
    respond(std::move(r));
  };
}

TEST(HttpServerTest, ServesSeveralRequestsOnOneKeepAliveConnection) {
  std::atomic<int> calls{0};
  Running s(Echo(&calls));
  int fd = Connect(s.server().port());
  SendAll(fd,
          "POST /a?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
          "GET /b HTTP/1.1\r\nHost: h\r\n\r\n");
  std::string rest;
  std::string first = ReadResponse(fd, &rest);
  std::string second = ReadResponse(fd, &rest);
  EXPECT_NE(first.find("HTTP/1.1 200 OK"), std::string::npos) << first;
  EXPECT_NE(first.find("POST /a?x=1 abc"), std::string::npos) << first;
  EXPECT_NE(second.find("X-Path: /b"), std::string::npos) << second;
  EXPECT_EQ(calls.load(), 2);
  close(fd);
}

TEST(HttpServerTest, AnswersLaterThroughTimerWithoutBlockingOthers) {
  HttpServer* server = nullptr;
  Running s([&server](HttpRequest req, Responder respond) {
    int delay = req.path == "/slow" ? 300 : 0;
    server->After(std::chrono::milliseconds(delay), [respond, path = req.path] {
      HttpResponse r;
      r.body = path;
      respond(r);
    });
  });
  server = &s.server();
  int slow = Connect(server->port());
  int fast = Connect(server->port());
  SendAll(slow, "GET /slow HTTP/1.1\r\nHost: h\r\n\r\n");
  SendAll(fast, "GET /fast HTTP/1.1\r\nHost: h\r\n\r\n");
  EXPECT_NE(ReadResponse(fast).find("/fast"), std::string::npos);
  EXPECT_NE(ReadResponse(slow).find("/slow"), std::string::npos);
  close(slow);
  close(fast);
}

TEST(HttpServerTest, RejectsOversizedBodyWith413AndMalformedRequestWith400) {
  ServerOptions options;
  options.max_body_bytes = 10;
  Running s(Echo(), options);
  int fd = Connect(s.server().port());
  SendAll(fd, "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\n");
  EXPECT_NE(ReadResponse(fd).find("HTTP/1.1 413"), std::string::npos);
  close(fd);
  fd = Connect(s.server().port());
  SendAll(fd, "NOT A REQUEST\r\n\r\n");
  EXPECT_NE(ReadResponse(fd).find("HTTP/1.1 400"), std::string::npos);
  close(fd);
}

TEST(HttpServerTest, SendsContinueBeforeReadingAnExpectedBody) {
  Running s(Echo());
  int fd = Connect(s.server().port());
  SendAll(fd, "POST /e HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n");
  char buf[64] = {};
  ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(buf, static_cast<size_t>(n)), "HTTP/1.1 100 Continue\r\n\r\n");
  SendAll(fd, "body");
  EXPECT_NE(ReadResponse(fd).find("POST /e body"), std::string::npos);
  close(fd);
}

TEST(HttpServerTest, ResetsConnectionWhenAsked) {
  Running s([](HttpRequest, Responder respond) {
    HttpResponse r;
    r.delivery.reset = true;
    respond(r);
  });
  int fd = Connect(s.server().port());
  SendAll(fd, "GET / HTTP/1.1\r\nHost: h\r\n\r\n");
  char buf[16];
  ssize_t n = recv(fd, buf, sizeof buf, 0);
  EXPECT_EQ(n, -1);
  EXPECT_EQ(errno, ECONNRESET);
  close(fd);
}

TEST(HttpServerTest, PacesSlowBodiesButDeliversThemWhole) {
  Running s([](HttpRequest, Responder respond) {
    HttpResponse r;
    r.body = std::string(100, 'z');
    r.delivery.chunk_bytes = 40;
    r.delivery.chunk_delay = std::chrono::milliseconds(5);
    respond(r);
  });
  int fd = Connect(s.server().port());
  SendAll(fd, "GET / HTTP/1.1\r\nHost: h\r\n\r\n");
  std::string resp = ReadResponse(fd);
  EXPECT_NE(resp.find("Content-Length: 100"), std::string::npos);
  EXPECT_NE(resp.find(std::string(100, 'z')), std::string::npos);
  close(fd);
}

TEST(HttpServerTest, StopClosesIdleConnectionsAndReturns) {
  auto s = std::make_unique<Running>(Echo());
  int fd = Connect(s->server().port());
  SendAll(fd, "GET / HTTP/1.1\r\nHost: h\r\n\r\n");
  EXPECT_FALSE(ReadResponse(fd).empty());
  s.reset();  // Stop + join must return although the client keeps its connection open
  char buf[8];
  EXPECT_EQ(recv(fd, buf, sizeof buf, 0), 0);
  close(fd);
}

TEST(HttpRequestTest, FindsHeadersCaseInsensitivelyAndDecodesQuery) {
  HttpRequest r;
  r.headers = {{"X-Api-Key", "k1"}};
  r.query = "key=a%20b&flag&x=1+2";
  ASSERT_NE(r.FindHeader("x-api-key"), nullptr);
  EXPECT_EQ(*r.FindHeader("x-api-key"), "k1");
  EXPECT_EQ(r.QueryParam("key").value(), "a b");
  EXPECT_EQ(r.QueryParam("flag").value(), "");
  EXPECT_EQ(r.QueryParam("x").value(), "1 2");
  EXPECT_FALSE(r.QueryParam("nope").has_value());
}

}  // namespace
}  // namespace structure::http
