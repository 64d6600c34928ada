#include "batch/http_client.h"

#include <condition_variable>
#include <ctime>
#include <mutex>

#include "providers/http_status.h"
#include "providers/transport/curl_transport.h"

namespace structure::batch {

namespace {

// The transport's sink delivers on its own thread; a caller waits for its one transfer.
struct Waiter {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  providers::HttpResponse response;
};

bool Transient(const providers::HttpResponse& r) {
  if (r.error != providers::TransportError::kNone)
    return r.error != providers::TransportError::kCancelled &&
           r.error != providers::TransportError::kTlsVerify;
  return IsRetryable(providers::CodeFromHttpStatus(r.status)) && r.status != 429;
}

}  // namespace

std::chrono::milliseconds NextPollInterval(std::chrono::milliseconds current,
                                           std::chrono::milliseconds max_poll) {
  return std::min(max_poll, current * 3 / 2);
}

Result<SendFn> MakeCurlSend(const providers::CurlOptions& options) {
  providers::InitCurlOnce();
  auto waiter = std::make_shared<Waiter>();
  auto transport = providers::MakeCurlTransport(
      [waiter](std::vector<providers::Completion>&& done) {
        std::lock_guard<std::mutex> lock(waiter->mu);
        for (auto& c : done) waiter->response = std::move(c.response);
        waiter->done = true;
        waiter->cv.notify_all();
      },
      options);
  if (!transport.ok()) return transport.status();
  std::shared_ptr<providers::Transport> shared(std::move(*transport));
  auto next_id = std::make_shared<uint64_t>(1);
  return SendFn([shared, waiter, next_id](const providers::HttpRequest& request) {
    {
      std::lock_guard<std::mutex> lock(waiter->mu);
      waiter->done = false;
    }
    shared->Start((*next_id)++, request);
    std::unique_lock<std::mutex> lock(waiter->mu);
    waiter->cv.wait(lock, [&] { return waiter->done; });
    return std::move(waiter->response);
  });
}

providers::HttpResponse SendWithRetries(const SendFn& send, const SleepFn& sleep,
                                        const providers::HttpRequest& request,
                                        const RetryPolicy& policy) {
  int transient = 0;
  int limited = 0;
  std::chrono::milliseconds backoff = policy.first_backoff;
  for (;;) {
    providers::HttpResponse r = send(request);
    std::chrono::milliseconds wait{0};
    if (r.error == providers::TransportError::kNone && r.status == 429) {
      if (++limited > policy.max_rate_limit_retries) return r;
      auto hint = providers::ParseRateHint(r, static_cast<int64_t>(std::time(nullptr)));
      wait = hint.retry_after ? std::min(*hint.retry_after, policy.max_retry_after) : backoff;
    } else if (Transient(r)) {
      if (++transient > policy.max_retries) return r;
      wait = backoff;
    } else {
      return r;
    }
    backoff = std::min(backoff * 2, policy.max_backoff);
    if (!sleep(wait)) return r;
  }
}

}  // namespace structure::batch
