// The floor under the provider pool's CPU per call: bare libcurl on one thread (multi handle,
// socket_action on epoll, reused easy handles, no parsing, no actors) sending one fixed request
// over and over. bench_pool reports the engine's CPU per call as a ratio to this, measured in
// the same run against the same simulator.
#pragma once

#include <string>

#include "providers/http.h"

namespace structure::bench {

struct FloorRun {
  int ok = 0;
  int failed = 0;
  double cpu_s = 0;  // this process's user + system CPU over the measured calls
  double sys_s = 0;  // the system (kernel) part of cpu_s
  double wall_s = 0;
  double steady_per_s = 0;  // calls per second over the steady window (bench/steady_window.h)
  int sockets = 0;          // sockets open after the run: its kept-alive connections
};

// How the floor talks to the server.
enum class FloorProtocol {
  kHttp1,  // what the URL's scheme gives: HTTP/1.1 over http:// or https://
  // HTTP/2 without TLS by prior knowledge, streams multiplexed on shared connections. Debian
  // 12's libcurl 7.88.1 fails every transfer that reuses an h2c connection ("Error in the HTTP2
  // framing layer"; a curl bug fixed after 7.88.1), with prior knowledge and Upgrade, so
  // HTTP/2 cannot be measured against a cleartext server here.
  kH2c,
  kH2,  // HTTP/2 over TLS (ALPN), streams multiplexed (CURLOPT_PIPEWAIT), as the transport
};

// `calls` transfers of `request`, `inflight` at a time, after one warm-up wave that opens the
// connections (not measured). Over TLS the server's certificate is checked against `ca_file`
// (empty: the system store), with no CA directory unless `ca_path` names one: libcurl then
// parses the CA store once per multi handle, as the transport does
// (providers/transport/curl_network.h); with a directory it parses it for every connection.
FloorRun BareCurlFloor(const providers::HttpRequest& request, int inflight, int calls,
                       FloorProtocol protocol = FloorProtocol::kHttp1,
                       const std::string& ca_file = "", const std::string& ca_path = "");

}  // namespace structure::bench
