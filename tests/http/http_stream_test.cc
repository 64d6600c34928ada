// HttpServer's streamed answers (HttpResponse::stream, http/body_stream.h): chunked pieces sent
// as the handler produces them, keep-alive after the last chunk, a client that stops reading
// dropped at the write timeout with the stream closed, and a 413 the client gets to read.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "http/body_stream.h"
#include "http/http_server.h"
#include "tests/support/http_server_harness.h"

namespace structure::http {
namespace {

using std::chrono::milliseconds;
using testing::Running;

constexpr int kPatienceMs = 60000;  // an upper bound far above anything under test

bool Send(int fd, const std::string& s) {
  return send(fd, s.data(), s.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(s.size());
}

// Reads until `needle` has arrived, the peer closed, or the patience ran out.
std::string ReadUntil(int fd, const std::string& needle) {
  std::string got;
  auto deadline = std::chrono::steady_clock::now() + milliseconds(kPatienceMs);
  while (got.find(needle) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;
    char buf[4096];
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    got.append(buf, static_cast<size_t>(n));
  }
  return got;
}

// The stream the handler answered with, for the test to drive.
struct Captured {
  std::mutex mu;
  std::shared_ptr<BodyStream> stream;
  std::shared_ptr<BodyStream> Get() {
    for (int i = 0; i < kPatienceMs / 10; ++i) {
      {
        std::lock_guard<std::mutex> lock(mu);
        if (stream) return stream;
      }
      std::this_thread::sleep_for(milliseconds(10));
    }
    return nullptr;
  }
};

Handler Streaming(Captured* captured) {
  return [captured](HttpRequest req, Responder respond) {
    HttpResponse r;
    r.SetHeader("Content-Type", "text/event-stream");
    if (req.path == "/plain") {
      r.body = "whole";
      return respond(std::move(r));
    }
    r.body = ": first\n\n";
    r.stream = std::make_shared<BodyStream>(1 << 20);
    {
      std::lock_guard<std::mutex> lock(captured->mu);
      captured->stream = r.stream;
    }
    respond(std::move(r));
  };
}

TEST(HttpStreamTest, PiecesArriveAsChunksAndTheConnectionIsKeptAfterTheLast) {
  Captured captured;
  Running s(Streaming(&captured));
  int fd = testing::Connect(s.server().port());
  ASSERT_TRUE(Send(fd, "GET /events HTTP/1.1\r\nHost: h\r\n\r\n"));
  std::string head = ReadUntil(fd, ": first\n\n");
  EXPECT_NE(head.find("Transfer-Encoding: chunked"), std::string::npos) << head;
  EXPECT_EQ(head.find("Content-Length"), std::string::npos) << head;
  auto stream = captured.Get();
  ASSERT_NE(stream, nullptr);
  EXPECT_TRUE(stream->Send("data: 1\n\n"));
  std::string one = ReadUntil(fd, "data: 1\n\n");
  EXPECT_NE(one.find("9\r\ndata: 1\n\n\r\n"), std::string::npos) << one;
  EXPECT_TRUE(stream->Send("data: [DONE]\n\n"));
  stream->Finish();
  EXPECT_FALSE(stream->Send("late"));
  std::string end = ReadUntil(fd, "0\r\n\r\n");
  EXPECT_NE(end.find("data: [DONE]"), std::string::npos) << end;
  EXPECT_NE(end.find("0\r\n\r\n"), std::string::npos) << end;
  // The same connection answers the next request.
  ASSERT_TRUE(Send(fd, "GET /plain HTTP/1.1\r\nHost: h\r\n\r\n"));
  EXPECT_NE(ReadUntil(fd, "whole").find("whole"), std::string::npos);
  close(fd);
}

TEST(HttpStreamTest, ClientThatStopsReadingIsDroppedAndTheStreamCloses) {
  Captured captured;
  ServerOptions options;
  options.write_timeout = milliseconds(300);
  Running s(Streaming(&captured), options);
  int fd = testing::Connect(s.server().port());
  int small = 4096;
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  ASSERT_TRUE(Send(fd, "GET /events HTTP/1.1\r\nHost: h\r\n\r\n"));
  auto stream = captured.Get();
  ASSERT_NE(stream, nullptr);
  // The client reads nothing: the socket buffers fill, a write misses its deadline, and the
  // stream reports closed (Send false) instead of queueing without end.
  std::string piece(64 * 1024, 'x');
  bool closed = false;
  auto deadline = std::chrono::steady_clock::now() + milliseconds(kPatienceMs);
  while (!closed && std::chrono::steady_clock::now() < deadline) {
    closed = !stream->Send(piece);
    std::this_thread::sleep_for(milliseconds(5));
  }
  EXPECT_TRUE(closed);
  EXPECT_TRUE(stream->closed());
  // The server goes on serving others.
  int other = testing::Connect(s.server().port());
  ASSERT_TRUE(Send(other, "GET /plain HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"));
  EXPECT_NE(ReadUntil(other, "whole").find("whole"), std::string::npos);
  close(other);
  close(fd);
}

TEST(HttpStreamTest, ClientThatLeavesClosesTheStream) {
  Captured captured;
  Running s(Streaming(&captured));
  int fd = testing::Connect(s.server().port());
  ASSERT_TRUE(Send(fd, "GET /events HTTP/1.1\r\nHost: h\r\n\r\n"));
  ReadUntil(fd, ": first\n\n");
  auto stream = captured.Get();
  ASSERT_NE(stream, nullptr);
  close(fd);
  bool closed = false;
  auto deadline = std::chrono::steady_clock::now() + milliseconds(kPatienceMs);
  while (!closed && std::chrono::steady_clock::now() < deadline) {
    closed = !stream->Send(": keep-alive\n\n");
    std::this_thread::sleep_for(milliseconds(20));
  }
  EXPECT_TRUE(closed);
}

TEST(HttpStreamTest, OversizedBodyGets413ThroughTheLocalErrorHookAndIsReadable) {
  ServerOptions options;
  options.max_body_bytes = 1024;
  options.local_error = [](const std::string& target, int status, const std::string& code,
                           const std::string& message) {
    HttpResponse r;
    r.status = status;
    r.body = "{\"target\":\"" + target + "\",\"code\":\"" + code + "\",\"m\":\"" + message + "\"}";
    return r;
  };
  Running s([](HttpRequest, Responder respond) { respond(HttpResponse{}); }, options);
  int fd = testing::Connect(s.server().port());
  // 8 MB announced and sent while the server answers: the client's writes complete (the rest
  // is read and dropped) and the 413 is there to read.
  size_t total = 8 * 1024 * 1024;
  ASSERT_TRUE(Send(fd, "POST /v1/chat/completions HTTP/1.1\r\nHost: h\r\nContent-Length: " +
                           std::to_string(total) + "\r\n\r\n"));
  std::string block(64 * 1024, 'a');
  size_t sent = 0;
  while (sent < total && Send(fd, block)) sent += block.size();
  EXPECT_EQ(sent, total);
  std::string answer = ReadUntil(fd, "}");
  EXPECT_NE(answer.find("HTTP/1.1 413"), std::string::npos) << answer;
  EXPECT_NE(answer.find("\"target\":\"/v1/chat/completions\""), std::string::npos) << answer;
  EXPECT_NE(answer.find("\"code\":\"too_large\""), std::string::npos) << answer;
  close(fd);
}

}  // namespace
}  // namespace structure::http
