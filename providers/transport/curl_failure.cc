#include "providers/transport/curl_failure.h"

#include <string>

namespace structure::providers {

TransportError MapCurlCode(CURLcode code) {
  switch (code) {
    case CURLE_OK:
      return TransportError::kNone;
    case CURLE_COULDNT_CONNECT:
      return TransportError::kConnect;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return TransportError::kDns;
    case CURLE_OPERATION_TIMEDOUT:
      return TransportError::kTimeout;
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return TransportError::kReset;
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
      return TransportError::kTlsVerify;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
      return TransportError::kTls;
    case CURLE_ABORTED_BY_CALLBACK:
      return TransportError::kCancelled;
    default:
      return TransportError::kOther;
  }
}

void DescribeFailure(CURL* easy, CURLcode code, const char* error_buffer,
                     const NetworkOptions& network, HttpResponse* response) {
  response->status = 0;
  response->error = MapCurlCode(code);
  std::string detail = error_buffer != nullptr && error_buffer[0] ? error_buffer : "";
  char* url = nullptr;
  curl_easy_getinfo(easy, CURLINFO_EFFECTIVE_URL, &url);
  std::string host = url != nullptr ? HostOf(url) : "the server";
  // The request is written after the connection (and its TLS handshake) is up: no
  // pre-transfer time means nothing was sent.
  curl_off_t pretransfer = 0;
  curl_easy_getinfo(easy, CURLINFO_PRETRANSFER_TIME_T, &pretransfer);
  response->nothing_sent = pretransfer == 0;
  if (response->error == TransportError::kTlsVerify) {
    response->error_text =
        "TLS certificate of " + host +
        " not accepted: " + (detail.empty() ? curl_easy_strerror(code) : detail) +
        " (trusted CAs: " + (network.ca_file.empty() ? "the system store" : network.ca_file) +
        (network.ca_path.empty() ? "" : " and " + network.ca_path) +
        "; a company CA goes in the provider's ca_file or SSL_CERT_FILE)";
    return;
  }
  response->error_text = curl_easy_strerror(code);
  if (!detail.empty()) response->error_text += " (" + detail + ")";
  if (response->error == TransportError::kTls) response->error_text += " talking to " + host;
  if (!network.proxy.empty()) response->error_text += " via proxy " + RedactProxy(network.proxy);
}

}  // namespace structure::providers
