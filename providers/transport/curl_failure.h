// Why a curl transfer failed: the TransportError the pool acts on, a message a user can act on
// (a certificate not accepted names the host, curl's reason and the CAs it was checked
// against), and whether the request may have reached the server. Used by the transport's I/O
// thread only.
#pragma once

#include <curl/curl.h>

#include "providers/http.h"
#include "providers/transport/network.h"

namespace structure::providers {

TransportError MapCurlCode(CURLcode code);

// Fills response->error, error_text and nothing_sent for a transfer of `easy` that ended with
// `code` (not CURLE_OK); `error_buffer` is its CURLOPT_ERRORBUFFER.
void DescribeFailure(CURL* easy, CURLcode code, const char* error_buffer,
                     const NetworkOptions& network, HttpResponse* response);

}  // namespace structure::providers
