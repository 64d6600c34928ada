// NetworkOptions (providers/transport/network.h) as libcurl options of an easy handle, and the
// share handle every shard of a transport uses for TLS sessions and DNS answers. Used by the curl
// transport's I/O thread only.
#pragma once

#include <curl/curl.h>

#include "providers/transport/network.h"

namespace structure::providers {

// Sets the proxy, the trusted CAs, certificate checking and the connect timeout on `easy`.
// Without a configured CA directory, the one built into libcurl (Debian: /etc/ssl/certs) is
// dropped: libcurl keeps a parsed CA store for reuse only when no directory is set, and parses
// the whole bundle again for every connection otherwise. The bundle (Debian:
// /etc/ssl/certs/ca-certificates.crt) holds the same certificates.
void ApplyNetwork(CURL* easy, const NetworkOptions& network);

// A share handle for TLS session IDs and DNS answers, without lock callbacks: every handle
// using it must run on one thread. nullptr when libcurl refuses.
CURLSH* NewSingleThreadShare();

}  // namespace structure::providers
