// The request header lists the curl transport hands to libcurl (CURLOPT_HTTPHEADER). A pool
// sends the same few headers on every call, so a list is built once per distinct header set
// and shared by every transfer that sends that set; past kShared sets, each transfer gets a
// list of its own, which it frees when it ends. Used by the transport's I/O thread only.
#pragma once

#include <cstddef>
#include <vector>

#include <curl/curl.h>

#include "providers/http.h"

namespace structure::providers {

class CurlHeaderLists {
 public:
  static constexpr size_t kShared = 8;

  CurlHeaderLists() = default;
  ~CurlHeaderLists() { Clear(); }
  CurlHeaderLists(const CurlHeaderLists&) = delete;
  CurlHeaderLists& operator=(const CurlHeaderLists&) = delete;

  // The list for `headers`, with an empty "Expect:" added (without it curl waits up to a
  // second for "100 Continue" on bodies over 1 KB). *owned: the caller frees the list
  // (curl_slist_free_all) once its transfer has ended.
  curl_slist* For(const HttpHeaders& headers, bool* owned);

  // Frees the shared lists; no transfer may still be using one.
  void Clear();

 private:
  struct Shared {
    HttpHeaders headers;
    curl_slist* list = nullptr;
  };
  std::vector<Shared> shared_;
};

}  // namespace structure::providers
