#include "providers/transport/curl_network.h"

namespace structure::providers {

void ApplyNetwork(CURL* e, const NetworkOptions& n) {
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(n.connect_timeout_ms));
  // Always set: an explicit proxy (or "" for none) also skips curl's per-transfer scan of the
  // *_proxy variables, which ResolveNetwork has read once.
  curl_easy_setopt(e, CURLOPT_PROXY, n.proxy.c_str());
  if (!n.ca_file.empty()) {
    curl_easy_setopt(e, CURLOPT_CAINFO, n.ca_file.c_str());
    curl_easy_setopt(e, CURLOPT_PROXY_CAINFO, n.ca_file.c_str());  // an https:// proxy's CA
  }
  curl_easy_setopt(e, CURLOPT_CAPATH, n.ca_path.empty() ? nullptr : n.ca_path.c_str());
  curl_easy_setopt(e, CURLOPT_PROXY_CAPATH, n.ca_path.empty() ? nullptr : n.ca_path.c_str());
  if (!n.verify_tls) {
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
  }
}

CURLSH* NewSingleThreadShare() {
  CURLSH* share = curl_share_init();
  if (share == nullptr) return nullptr;
  if (curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION) != CURLSHE_OK ||
      curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS) != CURLSHE_OK) {
    curl_share_cleanup(share);
    return nullptr;
  }
  return share;
}

}  // namespace structure::providers
