#include "providers/transport/curl_ca_store.h"

#include <cstring>
#include <string>

#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

namespace structure::providers {
namespace {

// Called by libcurl after it has set up each new SSL_CTX (its own, nearly empty store there).
CURLcode InstallStore(CURL*, void* ssl_ctx, void* store) {
  auto* ctx = static_cast<SSL_CTX*>(ssl_ctx);
  SSL_CTX_set1_cert_store(ctx, static_cast<X509_STORE*>(store));
  return CURLE_OK;
}

bool OpenSslBackend() {
  const curl_version_info_data* v = curl_version_info(CURLVERSION_NOW);
  return v != nullptr && v->ssl_version != nullptr &&
         std::strncmp(v->ssl_version, "OpenSSL/", 8) == 0;
}

std::string DefaultBundle() {
  const curl_version_info_data* v = curl_version_info(CURLVERSION_NOW);
  return v != nullptr && v->cainfo != nullptr ? v->cainfo : "";
}

}  // namespace

std::unique_ptr<CurlCaStore> CurlCaStore::Load(const NetworkOptions& network) {
  if (!network.verify_tls || !OpenSslBackend()) return nullptr;
  std::string bundle = network.ca_file.empty() ? DefaultBundle() : network.ca_file;
  if (bundle.empty()) return nullptr;
  X509_STORE* store = X509_STORE_new();
  if (store == nullptr) return nullptr;
  bool ok = X509_STORE_load_file(store, bundle.c_str()) == 1;
  if (ok && !network.ca_path.empty())
    ok = X509_STORE_load_path(store, network.ca_path.c_str()) == 1;
  if (!ok) {
    X509_STORE_free(store);
    return nullptr;
  }
  // As libcurl sets on the stores it builds (unless CURLSSLOPT_NO_PARTIALCHAIN): an
  // intermediate CA in the bundle is trusted on its own.
  X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN);
  return std::unique_ptr<CurlCaStore>(new CurlCaStore(store));
}

CurlCaStore::~CurlCaStore() { X509_STORE_free(static_cast<X509_STORE*>(store_)); }

bool CurlCaStore::Apply(CURL* easy) const {
  if (curl_easy_setopt(easy, CURLOPT_SSL_CTX_FUNCTION, &InstallStore) != CURLE_OK ||
      curl_easy_setopt(easy, CURLOPT_SSL_CTX_DATA, store_) != CURLE_OK) {
    return false;
  }
  curl_easy_setopt(easy, CURLOPT_CAINFO, nullptr);
  curl_easy_setopt(easy, CURLOPT_CAPATH, nullptr);
  curl_easy_setopt(easy, CURLOPT_PROXY_CAINFO, nullptr);
  curl_easy_setopt(easy, CURLOPT_PROXY_CAPATH, nullptr);
  return true;
}

}  // namespace structure::providers
