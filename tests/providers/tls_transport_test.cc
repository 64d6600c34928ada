// The curl transport over real TLS: nginx (TLS 1.3, HTTP/2) in front of a fixed-reply server, with
// a certificate made at test time (tests/support/tls_rig.h), tinyproxy as a CONNECT proxy, and
// the faults real networks have: a handshake that stalls, GOAWAY while streams are open, a
// stream reset, a server closing idle connections.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "providers/openai/openai_chat.h"
#include "providers/transport/curl_transport.h"
#include "tests/providers/golden.h"
#include "tests/providers/transport_inbox.h"
#include "tests/support/proxy_rig.h"
#include "tests/support/tls_rig.h"

namespace structure::providers {
namespace {

HttpRequest Call(const std::string& base_url, int i) {
  Endpoint e;
  e.base_url = base_url;
  e.api_key = "sk-test";
  ProviderCall c = testing::BasicCall();
  c.turns[0].text = "Ada, 36. #" + std::to_string(i);
  auto r = *openai_chat::BuildRequest(c, e);
  r.timeout_ms = 20'000;
  return r;
}

// Starts `n` calls at `base_url` and waits for them; the completions, in order of arrival.
std::vector<Completion> RunCalls(Transport& t, Inbox& inbox, const std::string& base_url, int n,
                                 uint64_t first_id = 1) {
  size_t before = inbox.size();
  for (int i = 0; i < n; ++i) t.Start(first_id + i, Call(base_url, static_cast<int>(first_id) + i));
  EXPECT_TRUE(inbox.WaitFor(before + n)) << "calls did not all complete within 20 s";
  std::lock_guard<std::mutex> lock(inbox.mu);
  return std::vector<Completion>(inbox.done.begin() + static_cast<long>(before), inbox.done.end());
}

class TlsTransportTest : public ::testing::Test {
 protected:
  // nginx in front of its own fixed-reply server (a valid OpenAI chat completion).
  void StartServers(structure::testing::NginxOptions options = {}) {
    std::string error;
    nginx_ = structure::testing::NginxTls::Start(options, &error);
    ASSERT_TRUE(nginx_) << error;
  }

  std::unique_ptr<Transport> MakeTransport(NetworkOptions network = {}) {
    if (network.ca_file.empty()) network.ca_file = nginx_->ca_file();
    CurlOptions options;
    options.network = network;
    auto t = MakeCurlTransport(inbox_.Sink(), options);
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? std::move(*t) : nullptr;
  }

  static void ExpectAllOk(const std::vector<Completion>& done) {
    for (const Completion& c : done) {
      EXPECT_EQ(c.response.status, 200) << c.response.error_text << c.response.body;
    }
  }

  std::unique_ptr<structure::testing::NginxTls> nginx_;
  Inbox inbox_;
};

TEST_F(TlsTransportTest, MultiplexesCallsOverHttp2CheckedAgainstTheTestCa) {
  StartServers();
  auto t = MakeTransport();
  ExpectAllOk(RunCalls(*t, inbox_, nginx_->url(true), 60));
  structure::testing::NginxLogStats log = nginx_->ReadLogOnce(60);
  EXPECT_EQ(log.requests, 60);
  EXPECT_EQ(log.protocols["HTTP/2.0"], 60);
  EXPECT_LE(log.connections, 2);  // one shard holds 64 transfers: one connection, streams on it
}

// Every shard shares one TLS session cache: once a session exists, new connections resume it
// instead of a full handshake. nginx closes each connection after one request (as providers close
// connections), so the 150 calls over three shards need 150 new connections however fast they
// complete; the count does not depend on how many are in flight at once.
TEST_F(TlsTransportTest, NewConnectionsResumeTheTlsSessionAcrossShards) {
  structure::testing::NginxOptions o;
  o.keepalive_requests = 1;
  StartServers(o);
  auto t = MakeTransport();
  ExpectAllOk(RunCalls(*t, inbox_, nginx_->url(false), 1));
  ExpectAllOk(RunCalls(*t, inbox_, nginx_->url(false), 150, 100));
  structure::testing::NginxLogStats log = nginx_->ReadLogOnce(151);
  EXPECT_EQ(log.connections, 151);
  // Measured: 78-125 of 151 resume on a quiet machine, 22 in a CI run with other tests beside it
  // (a connection started before a ticket reached the cache cannot; under load more of the 100
  // start before one has). Without a session cache none would.
  EXPECT_GE(log.resumed, 10) << log.full_handshakes << " full handshakes of " << log.connections;
}

TEST_F(TlsTransportTest, RefusesACertificateFromAnotherCaNamingHostAndReason) {
  StartServers();
  std::string error;
  ASSERT_TRUE(structure::testing::MakeCertificates(nginx_->dir(), "other", &error)) << error;
  NetworkOptions wrong;
  wrong.ca_file = nginx_->dir() + "/other-ca.pem";
  auto t = MakeTransport(wrong);
  auto done = RunCalls(*t, inbox_, nginx_->url(true), 1);
  ASSERT_EQ(done.size(), 1u);
  const HttpResponse& r = done[0].response;
  EXPECT_EQ(r.error, TransportError::kTlsVerify);
  EXPECT_TRUE(r.nothing_sent);
  EXPECT_NE(r.error_text.find("TLS certificate of localhost not accepted: SSL certificate "
                              "problem: unable to get local issuer certificate"),
            std::string::npos)
      << r.error_text;
  EXPECT_NE(r.error_text.find(wrong.ca_file), std::string::npos) << r.error_text;
  EXPECT_EQ(nginx_->ReadLog().requests, 0);
}

// The CA file is parsed once, at the first https call, into one store that the connections of
// every shard share: removed afterwards, it is not read again, and 200 more calls (up to four
// shards, a connection each, each certificate checked) are all accepted. libcurl alone parses
// the file again in each shard (its CA cache is per multi handle) and would refuse them.
TEST_F(TlsTransportTest, ChecksEveryShardAgainstTheCaStoreParsedAtTheFirstCall) {
  StartServers();
  NetworkOptions network;
  network.ca_file = nginx_->dir() + "/copy-of-ca.pem";
  ASSERT_TRUE(std::filesystem::copy_file(nginx_->ca_file(), network.ca_file));
  auto t = MakeTransport(network);
  ExpectAllOk(RunCalls(*t, inbox_, nginx_->url(true), 1));
  ASSERT_TRUE(std::filesystem::remove(network.ca_file));
  ExpectAllOk(RunCalls(*t, inbox_, nginx_->url(true), 200, 100));
  EXPECT_GE(nginx_->ReadLogOnce(201).connections, 2);
}

TEST_F(TlsTransportTest, TunnelsThroughAConnectProxyUnlessNoProxyNamesTheHost) {
  StartServers();
  std::string error;
  auto proxy = structure::testing::TinyProxy::Start(&error);
  ASSERT_TRUE(proxy) << error;
  std::map<std::string, std::string> vars = {{"HTTPS_PROXY", proxy->url()}};
  auto env = [&vars](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
  NetworkConfig config;
  config.ca_file = nginx_->ca_file();
  auto via_proxy = ResolveNetwork(config, nginx_->url(true), env, nullptr);
  ASSERT_TRUE(via_proxy.ok());
  EXPECT_EQ(via_proxy->proxy, proxy->url());
  auto t = MakeTransport(*via_proxy);
  ExpectAllOk(RunCalls(*t, inbox_, nginx_->url(true), 5));
  std::string tunnel = "CONNECT localhost:" + std::to_string(nginx_->h2_port()) + " HTTP/1.1";
  EXPECT_NE(proxy->Log().find(tunnel), std::string::npos) << proxy->Log();

  vars["NO_PROXY"] = "127.0.0.1,localhost";
  auto direct = ResolveNetwork(config, nginx_->url(false), env, nullptr);
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(direct->proxy, "");
  auto t2 = MakeTransport(*direct);
  ExpectAllOk(RunCalls(*t2, inbox_, nginx_->url(false), 3, 100));
  EXPECT_EQ(proxy->Log().find("CONNECT localhost:" + std::to_string(nginx_->h1_port())),
            std::string::npos);
  EXPECT_EQ(nginx_->ReadLogOnce(8).requests, 8);
}

// nginx sends GOAWAY after 10 requests on a connection while ~50 more streams are open; those
// above its last stream id are refused unprocessed and curl sends them again on a new
// connection. Every call succeeds and the server behind nginx saw each exactly once.
TEST_F(TlsTransportTest, GoawayMidStreamResendsOnlyUnprocessedStreams) {
  structure::testing::NginxOptions o;
  o.keepalive_requests = 10;
  StartServers(o);
  auto t = MakeTransport();
  ExpectAllOk(RunCalls(*t, inbox_, nginx_->url(true), 60));
  structure::testing::NginxLogStats log = nginx_->ReadLogOnce(60);
  EXPECT_EQ(nginx_->CannedRequests(), 60);
  EXPECT_EQ(log.statuses[200], 60);
  EXPECT_GE(log.connections, 6);
}

// nginx closes connections idle for 1 s; the next calls find them closed and open new ones.
TEST_F(TlsTransportTest, ServerClosingIdleConnectionsCostsNoCall) {
  structure::testing::NginxOptions o;
  o.keepalive_timeout_s = 1;
  StartServers(o);
  auto t = MakeTransport();
  ExpectAllOk(RunCalls(*t, inbox_, nginx_->url(true), 8));
  std::this_thread::sleep_for(std::chrono::milliseconds(1600));
  ExpectAllOk(RunCalls(*t, inbox_, nginx_->url(true), 8, 100));
  EXPECT_GE(nginx_->ReadLogOnce(16).connections, 2);
  EXPECT_EQ(nginx_->CannedRequests(), 16);
}

TEST_F(TlsTransportTest, StreamResetEndsTheCallAsMaybeProcessed) {
  StartServers();
  auto t = MakeTransport();
  auto done = RunCalls(*t, inbox_, nginx_->url(true) + "/reset", 1);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].response.error, TransportError::kReset) << done[0].response.error_text;
  EXPECT_FALSE(done[0].response.nothing_sent);
}

// A server that accepts TCP but never answers the TLS ClientHello: the connect timeout ends
// the transfer, marked as never sent (safe to send again).
TEST(TlsStallTest, StalledHandshakeTimesOutAsNothingSent) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
  ASSERT_EQ(listen(fd, 16), 0);
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len), 0);
  Inbox inbox;
  CurlOptions options;
  options.network.connect_timeout_ms = 300;
  auto t = MakeCurlTransport(inbox.Sink(), options);
  ASSERT_TRUE(t.ok());
  std::string url = "https://127.0.0.1:" + std::to_string(ntohs(a.sin_port));
  auto done = RunCalls(**t, inbox, url, 1);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].response.error, TransportError::kTimeout) << done[0].response.error_text;
  EXPECT_TRUE(done[0].response.nothing_sent);
  (*t)->Shutdown();
  close(fd);
}

}  // namespace
}  // namespace structure::providers
