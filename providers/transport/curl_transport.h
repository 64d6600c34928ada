// HTTP over libcurl multi handles driven by one dedicated I/O thread (epoll +
// curl_multi_socket_action, woken through an eventfd). Transfers are spread over shards of at
// most 64 (one multi handle and connection cache each: curl's reuse search scans the whole
// cache). Keep-alive connections are reused across transfers and stay registered in epoll
// while idle; HTTP/2 is negotiated over TLS where offered (CURLOPT_PIPEWAIT only for https).
// Completions are handed to the sink in batches from the I/O thread.
//
// TLS: the trusted CA store is parsed once per shard and kept (libcurl's CA cache, which it only
// uses when no CA directory is set, so the directory Debian's libcurl has built in is dropped
// unless one is configured), and every shard shares one TLS session cache and one DNS cache
// (a curl share handle without locks: only the I/O thread touches it), so a new connection to a
// host seen before resumes its TLS session. A certificate that fails verification ends the
// transfer with TransportError::kTlsVerify, naming the host and curl's reason.
#pragma once

#include <chrono>
#include <memory>

#include "providers/transport/network.h"
#include "providers/transport/transport.h"
#include "structure/status.h"

namespace structure::providers {

struct CurlOptions {
  // Proxy, trusted CAs, certificate checks and the connect timeout (providers/transport/network.h).
  NetworkOptions network;
  // libcurl's receive buffer, allocated per transfer while it runs (its default is 16 KB).
  // Replies arrive in chunks of this size; a small buffer costs a few more reads on large
  // replies and saves most of the memory of each call in flight.
  long receive_buffer_bytes = 1024;
  // Under load (two transfers started or finished in a turn, or one, less than a window after
  // the last) the I/O thread sleeps this long after a turn, so its next turn takes what arrived
  // meanwhile in one wake-up (base/batch_window.h). 0: never.
  std::chrono::microseconds batch_window{0};
};

// Calls curl_global_init once per process (thread-safe via call_once). Calling it from main
// before other threads start is still the recommended order.
void InitCurlOnce();

// Creates a transport and starts its thread. kInternal when curl or epoll setup fails.
Result<std::unique_ptr<Transport>> MakeCurlTransport(CompletionSink sink,
                                                     const CurlOptions& options = {});

// A factory for the pool; a setup failure yields nullptr (the pool then fails every call with
// kInternal).
TransportFactory CurlTransportFactory(const CurlOptions& options = {});

}  // namespace structure::providers
