// One parsed CA store for every TLS connection of a curl transport. libcurl 7.87+ caches the
// store it parses from CURLOPT_CAINFO, but per multi handle: a transport of N shards parsed the
// bundle N times and kept N copies (~600 KB each for Debian's ~145 CAs; ~9 KB per call in
// flight at 64 calls a shard). Used by the transport's I/O thread only.
#pragma once

#include <memory>

#include <curl/curl.h>

#include "providers/transport/network.h"

namespace structure::providers {

class CurlCaStore {
 public:
  // The store of `network` (its CA file, else libcurl's built-in bundle, plus its CA directory),
  // parsed once. nullptr when there is nothing to share or it cannot be loaded: certificate
  // checks off, a TLS backend other than OpenSSL, an unreadable or empty bundle. The caller then
  // leaves the CA options to libcurl, which reports a bad bundle per transfer as before.
  static std::unique_ptr<CurlCaStore> Load(const NetworkOptions& network);
  ~CurlCaStore();
  CurlCaStore(const CurlCaStore&) = delete;
  CurlCaStore& operator=(const CurlCaStore&) = delete;

  // Points `easy` at the store: the CA file and directory options are cleared (so libcurl
  // parses nothing) and CURLOPT_SSL_CTX_FUNCTION puts this store into every new TLS context,
  // the origin's and an https:// proxy's. The store must outlive every connection of `easy`.
  bool Apply(CURL* easy) const;

 private:
  explicit CurlCaStore(void* store) : store_(store) {}
  void* store_;  // X509_STORE*, one reference
};

}  // namespace structure::providers
