// Plain HTTP/1.1 request and response values exchanged between HttpServer and its handler.
// No Asio or Beast types leak through here, so handlers stay testable as pure functions.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace structure::http {

class BodyStream;  // http/body_stream.h

using Header = std::pair<std::string, std::string>;

struct HttpRequest {
  std::string method;           // "GET", "POST", ...; a HEAD request arrives as "GET"
  bool head = false;            // it was HEAD: answered as GET, the body is not sent
  std::string target;           // origin form: "/v1beta/models/x:generateContent?key=k"
  std::string path;             // target before '?', not percent-decoded
  std::string query;            // target after '?', without it
  std::vector<Header> headers;  // in arrival order, names as sent
  std::string body;
  std::string remote;  // "127.0.0.1:54321"

  // Value of the first header named `name` (case-insensitive), or nullptr.
  const std::string* FindHeader(std::string_view name) const;
  // Value of query parameter `name` (percent-decoded), or nullopt when absent.
  std::optional<std::string> QueryParam(std::string_view name) const;
};

// How the bytes of a response reach the peer. The defaults write it at once.
struct Delivery {
  // Abort the connection with a TCP reset instead of answering (fault injection).
  bool reset = false;
  // When chunk_bytes > 0 the serialized response is written in pieces of that size with
  // chunk_delay between them (a slow body; the Content-Length stays exact).
  size_t chunk_bytes = 0;
  std::chrono::milliseconds chunk_delay{0};
  // Close the connection after this response even when the client asked for keep-alive.
  bool close = false;
};

struct HttpResponse {
  int status = 200;
  std::vector<Header> headers;  // Content-Length and Connection are added by the server
  std::string body;
  Delivery delivery;
  // When set, the body is sent as it is produced (Transfer-Encoding: chunked): `body` first,
  // then what the handler Sends on the stream, until it Finishes (http/body_stream.h).
  std::shared_ptr<BodyStream> stream;

  // Replaces (case-insensitively) or appends a header.
  void SetHeader(std::string_view name, std::string value);
  const std::string* FindHeader(std::string_view name) const;
};

// A response with a JSON body and Content-Type application/json.
HttpResponse JsonResponse(int status, std::string body);

// The API's error shape (docs/server.md): {"status":"error","code":CODE,"errors":[MESSAGE]}.
HttpResponse ErrorResponse(int status, const std::string& code, const std::string& message);

// A request target in origin form (RFC 9112 3.2): an absolute-form target
// "http://host:8080/healthz?x=1" becomes "/healthz?x=1" ("/" when it names no path); any other
// target is returned as it is.
std::string OriginForm(std::string_view target);

// Case-insensitive ASCII comparison of header names.
bool HeaderNameEquals(std::string_view a, std::string_view b);

// The standard reason phrase for a status ("Too Many Requests"), or "Unknown".
std::string_view ReasonPhrase(int status);

}  // namespace structure::http
