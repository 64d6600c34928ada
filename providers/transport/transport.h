// The transport interface the provider pool drives: start a transfer by id, cancel it, and get
// completions back through a callback. Implementations: CurlTransport (real HTTP) and fakes
// in tests.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "providers/http.h"

namespace structure::providers {

struct Completion {
  uint64_t id = 0;
  HttpResponse response;
};

// Called with a batch of finished transfers, on the transport's own thread (CurlTransport) or
// on the caller's thread (fakes). Must not block; the pool forwards it as one message.
using CompletionSink = std::function<void(std::vector<Completion>&&)>;

class Transport {
 public:
  virtual ~Transport() = default;
  // Starts a transfer. Thread-safe. Exactly one completion per started id unless cancelled.
  virtual void Start(uint64_t id, HttpRequest request) = 0;
  // Abandons a transfer; no completion is delivered for it afterwards. Thread-safe.
  virtual void Cancel(uint64_t id) = 0;
  // Stops and joins any thread; pending transfers are dropped without completions.
  // Idempotent; also done by the destructor.
  virtual void Shutdown() = 0;
};

using TransportFactory = std::function<std::unique_ptr<Transport>(CompletionSink sink)>;

}  // namespace structure::providers
