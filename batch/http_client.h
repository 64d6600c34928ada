// Blocking HTTP for the provider batch runner's few control calls (upload, create, poll,
// download): one request at a time over the curl transport, retried on 429 (honouring
// Retry-After, capped) and on transient failures (5xx, resets, timeouts) with backoff.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

#include "providers/http.h"
#include "providers/transport/curl_transport.h"
#include "providers/transport/transport.h"
#include "structure/status.h"

namespace structure::batch {

// One exchange, without retries: the response, or the transport failure inside it.
using SendFn = std::function<providers::HttpResponse(const providers::HttpRequest& request)>;

// Waits `delay`; false when the wait was cut short (Ctrl-C), so the caller gives up.
using SleepFn = std::function<bool(std::chrono::milliseconds delay)>;

struct RetryPolicy {
  int max_retries = 5;                           // transient failures per request
  int max_rate_limit_retries = 20;               // 429s per request
  std::chrono::milliseconds first_backoff{500};  // doubled per retry
  std::chrono::milliseconds max_backoff{30'000};
  std::chrono::milliseconds max_retry_after{120'000};  // cap on a provider's Retry-After
};

// The wait before the next poll when the last one changed nothing: half as long again, at most
// `max_poll` (a poll that changed something starts again from the first interval).
std::chrono::milliseconds NextPollInterval(std::chrono::milliseconds current,
                                           std::chrono::milliseconds max_poll);

// A SendFn over a curl transport of its own, with `options` (proxy, CAs). kInternal when curl
// cannot be set up.
Result<SendFn> MakeCurlSend(const providers::CurlOptions& options = {});

// `send` with retries: the last response when retries run out or `sleep` is cut short.
// 429 waits for Retry-After (or backoff); 5xx, 408/409, resets and timeouts back off.
providers::HttpResponse SendWithRetries(const SendFn& send, const SleepFn& sleep,
                                        const providers::HttpRequest& request,
                                        const RetryPolicy& policy = {});

}  // namespace structure::batch
