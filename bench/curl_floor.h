// The floor under the provider pool's CPU per call: bare libcurl on one thread (multi handle,
// socket_action on epoll, reused easy handles, no parsing, no actors) sending one fixed request
// over and over. bench_pool reports the engine's CPU per call as a ratio to this, measured in
// the same run against the same simulator.
#pragma once

#include "providers/http.h"

namespace structure::bench {

struct FloorRun {
  int ok = 0;
  int failed = 0;
  double cpu_s = 0;  // this process's user + system CPU over the measured calls
  double sys_s = 0;  // the system (kernel) part of cpu_s
  double wall_s = 0;
  double steady_per_s = 0;  // calls per second over the steady window (bench/steady_window.h)
};

// `calls` transfers of `request`, `inflight` at a time, after one warm-up wave that opens the
// connections (not measured).
// With `h2c`, HTTP/2 without TLS by prior knowledge, streams multiplexed on shared connections.
// Debian 12's libcurl 7.88.1 fails every transfer that reuses an h2c connection ("Error in the
// HTTP2 framing layer", a curl bug fixed after 7.88.1), with prior knowledge and Upgrade,
// so HTTP/2 cannot be measured against a cleartext server here.
FloorRun BareCurlFloor(const providers::HttpRequest& request, int inflight, int calls,
                       bool h2c = false);

}  // namespace structure::bench
