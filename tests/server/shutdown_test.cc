// SIGTERM on `structure serve`: the call under way is answered, then the process exits 0; a
// second signal stops without waiting for it.
#include <gtest/gtest.h>
#include <signal.h>

#include <future>

#include "tests/server/server_fixture.h"
#include "tests/support/fake_tcp_server.h"

namespace structure::testing {
namespace {

// Waits (bounded) until serve at `url` has `n` calls under way.
bool CallsUnderWay(const std::string& url, int n) {
  const std::string line = "\nstructure_inflight_calls " + std::to_string(n) + "\n";
  for (int i = 0; i < 400; ++i) {
    if (Http("GET", url + "/metrics").body.find(line) != std::string::npos) return true;
    usleep(10000);
  }
  return false;
}

TEST(ServeShutdown, SigtermFinishesTheCallUnderWayAndExitsZero) {
  std::string error;
  auto sim = StartSim(&error);
  ASSERT_NE(sim, nullptr) << error;
  auto serve = StartServe(sim->base_url(), &error);
  ASSERT_NE(serve, nullptr) << error;
  const std::string url = serve->base_url();
  std::string body =
      R"({"prompt":"CASE-SLOW Mike, priority 2","schema":)" + std::string(kTicketSchema) + "}";
  auto slow = std::async(std::launch::async, [&] {
    return Http("POST", url + "/v1/structure", body, {"Authorization: Bearer key-acme"});
  });
  ASSERT_TRUE(CallsUnderWay(url, 1));  // the sim holds it for 1.5 s
  serve->Signal(SIGTERM);
  HttpReply r = slow.get();
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find(R"("status":"ok")"), std::string::npos) << r.body;
  EXPECT_EQ(serve->WaitFor(30), 0);
  // Nothing listens any more.
  EXPECT_EQ(Http("GET", url + "/healthz").status, 0);
}

// A provider that takes the request and never answers: the first Ctrl-C waits for the call (up
// to stop_grace_ms, 20 s here), the second ends the wait and the process exits 0 at once.
TEST(ServeShutdown, ASecondSignalStopsWithoutWaitingForTheCallUnderWay) {
  uint16_t port = 0;
  int silent = LoopbackListener(&port);  // never accepts: the kernel takes the request
  ASSERT_GE(silent, 0);
  std::string error;
  auto serve = StartServe("http://127.0.0.1:" + std::to_string(port) + "/v1", &error);
  ASSERT_NE(serve, nullptr) << error;
  const std::string url = serve->base_url();
  std::string body = R"({"prompt":"Mike, priority 2","schema":)" + std::string(kTicketSchema) + "}";
  auto held = std::async(std::launch::async, [&] {
    return Http("POST", url + "/v1/structure", body, {"Authorization: Bearer key-acme"});
  });
  ASSERT_TRUE(CallsUnderWay(url, 1));
  serve->Signal(SIGINT);
  EXPECT_EQ(serve->WaitFor(1), -1);  // still finishing the call
  serve->Signal(SIGINT);
  EXPECT_EQ(serve->WaitFor(10), 0);  // well before the grace (20 s) or the call (300 s) ends
  HttpReply r = held.get();          // closed, or answered as cancelled: never left hanging
  EXPECT_NE(r.status, 200) << r.body;
  close(silent);
}

}  // namespace
}  // namespace structure::testing
