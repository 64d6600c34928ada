// HttpServer against clients that pipeline past the keep-alive limit, send HEAD or an
// absolute-form target: the clean close after the last answer, over raw loopback sockets.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <mutex>
#include <thread>
#include <vector>

#include "http/http_server.h"
#include "tests/support/http_server_harness.h"

namespace structure::http {
namespace {

using std::chrono::milliseconds;
using testing::Running;

// Every wait here is an upper bound far above the deadlines under test (no timed assertions).
constexpr int kPatienceMs = 60000;

bool Send(int fd, const std::string& s) {
  size_t sent = 0;
  while (sent < s.size()) {
    ssize_t n = send(fd, s.data() + sent, s.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

// How a connection ended for the client reading it to the end.
enum class End { kClosed, kReset, kTimeout };

// Reads until the peer closes (kClosed), resets the connection (kReset) or kPatienceMs pass.
End ReadToEnd(int fd, std::string* got) {
  auto deadline = std::chrono::steady_clock::now() + milliseconds(kPatienceMs);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;
    char buf[65536];
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n == 0) return End::kClosed;
    if (n < 0) return errno == ECONNRESET ? End::kReset : End::kClosed;
    got->append(buf, static_cast<size_t>(n));
  }
  return End::kTimeout;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// One request on a fresh connection; the whole answer ("" when the connection failed).
std::string Ask(uint16_t port, const std::string& request) {
  int fd = testing::Connect(port);
  std::string got;
  if (Send(fd, request)) ReadToEnd(fd, &got);
  close(fd);
  return got;
}

TEST(HttpServerClientsTest, HeadGetsTheHeadersOfGetAndNoBody) {
  std::atomic<int> heads{0};
  Running s([&](HttpRequest req, Responder respond) {
    if (req.head && req.method == "GET") ++heads;
    HttpResponse r;
    r.body = "hello";
    respond(std::move(r));
  });
  int fd = testing::Connect(s.server().port());
  // HEAD then GET on one connection: a body after the HEAD answer would be read as the next
  // answer and break the second.
  ASSERT_TRUE(Send(fd,
                   "HEAD /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n"
                   "Connection: close\r\n\r\n"));
  std::string got;
  EXPECT_EQ(ReadToEnd(fd, &got), End::kClosed);
  close(fd);
  EXPECT_EQ(heads.load(), 1);
  ASSERT_EQ(Count(got, "HTTP/1.1 200 OK"), 2u) << got;
  EXPECT_EQ(Count(got, "Content-Length: 5"), 2u) << got;
  EXPECT_EQ(Count(got, "hello"), 1u) << got;
  EXPECT_EQ(got.substr(got.size() - 5), "hello");
}

TEST(HttpServerClientsTest, AbsoluteFormTargetIsServedByItsPath) {
  Running s([](HttpRequest req, Responder respond) {
    HttpResponse r;
    r.body = req.path + "|" + req.query + "|" + req.target;
    respond(std::move(r));
  });
  std::string got = Ask(s.server().port(),
                        "GET http://127.0.0.1:9/healthz?x=1 HTTP/1.1\r\nHost: h\r\n"
                        "Connection: close\r\n\r\n");
  EXPECT_NE(got.find("/healthz|x=1|/healthz?x=1"), std::string::npos) << got;
}

TEST(HttpServerClientsTest, OriginFormOfEveryTargetForm) {
  EXPECT_EQ(OriginForm("/a/b?c=d"), "/a/b?c=d");
  EXPECT_EQ(OriginForm("http://h:8080/a/b?c=d"), "/a/b?c=d");
  EXPECT_EQ(OriginForm("HTTPS://h"), "/");
  EXPECT_EQ(OriginForm("http://h?q"), "/?q");
  EXPECT_EQ(OriginForm("*"), "*");
  EXPECT_EQ(OriginForm("h:443"), "h:443");  // authority form (CONNECT)
}

TEST(HttpServerClientsTest, PipelinedRequestsPastTheLimitEndInACleanClose) {
  std::atomic<int> calls{0};
  ServerOptions o;
  o.max_requests_per_connection = 1000;
  Running s(
      [&](HttpRequest req, Responder respond) {
        ++calls;
        HttpResponse r;
        r.body = req.path;
        respond(std::move(r));
      },
      o);
  int fd = testing::Connect(s.server().port());
  auto requests = [](int from, int to) {
    std::string text;
    for (int i = from; i <= to; ++i)
      text += "GET /" + std::to_string(i) + " HTTP/1.1\r\nHost: h\r\n\r\n";
    return text;
  };
  ASSERT_TRUE(Send(fd, requests(1, 1000)));
  auto deadline = std::chrono::steady_clock::now() + milliseconds(kPatienceMs);
  while (calls.load() < 1000 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(milliseconds(5));
  // The last five arrive after the server has sent its last answer, unread: they reach a
  // socket that is closing.
  Send(fd, requests(1001, 1005));
  std::string got;
  // A close with the last requests unread must not reset the connection: the client would lose
  // answers it has not read yet.
  EXPECT_EQ(ReadToEnd(fd, &got), End::kClosed);
  close(fd);
  EXPECT_EQ(calls.load(), 1000);
  EXPECT_EQ(Count(got, "HTTP/1.1 200 OK"), 1000u);
  EXPECT_EQ(Count(got, "Connection: close"), 1u);
  EXPECT_EQ(got.substr(got.size() - 5), "/1000") << "the answers came in order, to the last";
}

// With a batch window the loop sleeps after busy turns: every request of a burst is still
// answered once, with its own answer, when the answers come from another thread (as the
// engine's do), and the server still stops.
TEST(HttpServerClientsTest, ABatchWindowAnswersEveryRequestOfABurstOnce) {
  std::mutex mu;
  std::vector<std::pair<std::string, Responder>> pending;
  std::atomic<bool> done{false};
  std::thread answerer([&] {
    while (!done) {
      std::vector<std::pair<std::string, Responder>> batch;
      {
        std::lock_guard<std::mutex> lock(mu);
        batch.swap(pending);
      }
      for (auto& [path, respond] : batch) {
        HttpResponse r;
        r.body = "answer:" + path;
        respond(std::move(r));
      }
      std::this_thread::sleep_for(milliseconds(1));
    }
  });
  ServerOptions o;
  o.batch_window = std::chrono::microseconds(2000);
  {
    Running s(
        [&](HttpRequest req, Responder respond) {
          std::lock_guard<std::mutex> lock(mu);
          pending.emplace_back(req.path, std::move(respond));
        },
        o);
    std::vector<std::thread> clients;
    std::atomic<int> right{0};
    for (int c = 0; c < 32; ++c) {
      clients.emplace_back([&, c] {
        for (int i = 0; i < 4; ++i) {
          std::string path = "/c" + std::to_string(c) + "-" + std::to_string(i);
          std::string got = Ask(s.server().port(), "GET " + path +
                                                       " HTTP/1.1\r\nHost: h\r\n"
                                                       "Connection: close\r\n\r\n");
          size_t body = got.find("\r\n\r\n");
          if (Count(got, "HTTP/1.1 200 OK") == 1 && body != std::string::npos &&
              got.substr(body + 4) == "answer:" + path) {
            ++right;
          }
        }
      });
    }
    for (auto& t : clients) t.join();
    EXPECT_EQ(right.load(), 32 * 4);
  }
  done = true;
  answerer.join();
}

}  // namespace
}  // namespace structure::http
