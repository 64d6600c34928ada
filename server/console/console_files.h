// The console's pages and assets as HTTP answers: GET /ui redirects to /ui/, /ui/ is
// the page, /ui/<file> an embedded asset. Every answer carries the console's security headers:
// a Content-Security-Policy that allows scripts, styles and requests from this origin only (no
// inline script or style), nosniff, no referrer, no framing.
#pragma once

#include <optional>
#include <string_view>

#include "http/http_message.h"

namespace structure::server {

// The answer for `path` (the request path with any --ui-base prefix removed), or nullopt when
// the path is not under /ui. 404 for an unknown file, 405 for a method other than GET,
// 304 when If-None-Match holds the file's ETag.
std::optional<http::HttpResponse> ConsoleFile(const http::HttpRequest& request,
                                              std::string_view path);

// Adds the console's security headers to `response`.
void AddConsoleHeaders(http::HttpResponse& response);

}  // namespace structure::server
