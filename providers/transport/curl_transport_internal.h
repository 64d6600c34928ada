// Internal: the curl transport (providers/transport/curl_transport.h) shared by its .cc files: the
// transfer (an easy handle kept for reuse), the shard (a multi handle) and the transport class.
// curl_transport.cc holds the I/O thread and its multi handles; curl_transfer.cc sets up the
// easy handles and reads their responses.
#pragma once

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <curl/curl.h>

#include "providers/transport/curl_ca_store.h"
#include "providers/transport/curl_header_lists.h"
#include "providers/transport/curl_transport.h"
#include "providers/transport/epoll_sockets.h"
#include "providers/transport/transport.h"

namespace structure::providers::detail {

using Clock = std::chrono::steady_clock;

// A transfer and its easy handle, kept together for reuse: the handle's options that point
// into the Transfer (private data, error buffer, write and header data) are set once, and a
// reused handle is given only the options that differ from its previous transfer.
struct Transfer {
  uint64_t id = 0;
  // The request body: CURLOPT_POSTFIELDS points into it until the transfer ends (curl sends it
  // again on a fresh connection when a reused one turns out dead after the upload).
  std::string body;
  HttpResponse response;
  CURL* easy = nullptr;  // owned: cleaned up with the Transfer (CurlTransport::Destroy)
  uint32_t shard = 0;
  curl_slist* headers = nullptr;  // from header_lists_
  bool owns_headers = false;      // freed by Drop (not a shared list)
  Clock::time_point started;
  // The per-transfer options as last set on `easy` (empty / -1: never set).
  std::string url;
  std::string method;
  curl_slist* set_headers = nullptr;
  int64_t timeout_ms = -1;
  int https = -1;
  bool ca_store_applied = false;
  char error[CURL_ERROR_SIZE] = {0};
};

// One multi handle and its connection cache. libcurl looks for a reusable connection by
// scanning every connection to the host in the cache, so one cache holding thousands of
// connections costs hundreds of microseconds per transfer; transfers are therefore spread over
// shards of at most kShardTransfers each, all driven by the same thread and epoll set.
struct Shard {
  CURLM* multi = nullptr;
  uint32_t index = 0;
  size_t active = 0;
  std::optional<Clock::time_point> timer_at;
  class CurlTransport* owner = nullptr;
  bool multiplexing = false;  // the server answered over HTTP/2: connections capped
};

class CurlTransport final : public Transport {
 public:
  CurlTransport(CompletionSink sink, const CurlOptions& options)
      : sink_(std::move(sink)), options_(options) {}
  ~CurlTransport() override { Shutdown(); }

  Status Init();

  // A wake-up is only needed when the hand-off lists were empty: otherwise one is already
  // pending and the I/O thread will take the whole list in one swap.
  void Start(uint64_t id, HttpRequest request) override {
    bool wake;
    {
      std::lock_guard<std::mutex> lock(mu_);
      wake = incoming_.empty() && cancels_.empty();
      incoming_.emplace_back(id, std::move(request));
    }
    if (wake) Wake();
  }

  void Cancel(uint64_t id) override {
    bool wake;
    {
      std::lock_guard<std::mutex> lock(mu_);
      wake = incoming_.empty() && cancels_.empty();
      cancels_.push_back(id);
    }
    if (wake) Wake();
  }

  void Shutdown() override;

 private:
  void Wake() {
    uint64_t one = 1;
    if (event_fd_ >= 0) (void)!write(event_fd_, &one, sizeof(one));
  }
  void Run();
  Shard* PickShard();
  std::unique_ptr<Transfer> NewTransfer();
  void FailNow(uint64_t id, std::string text);
  void Add(uint64_t id, HttpRequest request);
  void SetOptions(Transfer& t, HttpRequest& request);
  void Drop(Transfer* t);
  void Recycle(std::unique_ptr<Transfer> t);
  void UseCaStore(Transfer& t);
  size_t CollectDone(Shard& shard);

  static int OnSocket(CURL* easy, curl_socket_t s, int what, void* userp, void* socketp);
  static int OnTimer(CURLM* multi, long timeout_ms, void* userp);
  static curl_socket_t OnOpenSocket(void* clientp, curlsocktype purpose, curl_sockaddr* addr);
  static int OnCloseSocket(void* clientp, curl_socket_t s);
  static size_t OnWrite(char* data, size_t size, size_t n, void* userp);
  static size_t OnHeader(char* data, size_t size, size_t n, void* userp);

  CompletionSink sink_;
  CurlOptions options_;
  int epoll_fd_ = -1;
  int event_fd_ = -1;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::vector<std::pair<uint64_t, HttpRequest>> incoming_;  // guarded by mu_
  std::vector<uint64_t> cancels_;                           // guarded by mu_
  // Below: touched only by the I/O thread (and by Init / Shutdown around it).
  std::vector<std::unique_ptr<Shard>> shards_;
  std::optional<EpollSockets> sockets_;
  std::unordered_map<uint64_t, std::unique_ptr<Transfer>> active_;
  // Transfers finished and their summed wire time, for the batch window (the I/O thread's).
  uint64_t finished_ = 0;
  uint64_t finished_us_ = 0;
  std::vector<std::unique_ptr<Transfer>> spare_;  // finished transfers, their handles kept
  CurlHeaderLists header_lists_;
  CURLSH* share_ = nullptr;  // TLS sessions and DNS, shared by every shard; cleaned up last
  std::unique_ptr<CurlCaStore> ca_store_;  // null: libcurl loads the CAs (per shard)
  bool ca_store_tried_ = false;
};

}  // namespace structure::providers::detail
