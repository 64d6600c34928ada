// SIGTERM on `structure serve`: the call under way is answered, then the process exits 0.
#include <gtest/gtest.h>
#include <signal.h>

#include <future>

#include "tests/server/server_fixture.h"

namespace structure::testing {
namespace {

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
  // Waits (bounded) until the server has the call under way; the sim holds it for 1.5 s.
  bool underway = false;
  for (int i = 0; i < 400 && !underway; ++i) {
    std::string m = Http("GET", url + "/metrics").body;
    underway = m.find("\nstructure_inflight_calls 1\n") != std::string::npos;
    if (!underway) usleep(10000);
  }
  ASSERT_TRUE(underway);
  serve->Signal(SIGTERM);
  HttpReply r = slow.get();
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.body.find(R"("status":"ok")"), std::string::npos) << r.body;
  EXPECT_EQ(serve->WaitFor(30), 0);
  // Nothing listens any more.
  EXPECT_EQ(Http("GET", url + "/healthz").status, 0);
}

}  // namespace
}  // namespace structure::testing
