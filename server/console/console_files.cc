#include "server/console/console_files.h"

#include "server/console/console_assets.h"

namespace structure::server {

void AddConsoleHeaders(http::HttpResponse& r) {
  r.SetHeader("Content-Security-Policy",
              "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
              "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; "
              "frame-ancestors 'none'");
  r.SetHeader("X-Content-Type-Options", "nosniff");
  r.SetHeader("Referrer-Policy", "no-referrer");
  r.SetHeader("X-Frame-Options", "DENY");
}

std::optional<http::HttpResponse> ConsoleFile(const http::HttpRequest& request,
                                              std::string_view path) {
  constexpr std::string_view kRoot = "/ui";
  if (path.substr(0, kRoot.size()) != kRoot) return std::nullopt;
  std::string_view rest = path.substr(kRoot.size());
  if (!rest.empty() && rest.front() != '/') return std::nullopt;  // "/uix" is not ours
  http::HttpResponse r;
  AddConsoleHeaders(r);
  if (request.method != "GET") {
    r = http::ErrorResponse(405, "method_not_allowed",
                            request.method + " is not allowed on the console (allowed: GET)");
    AddConsoleHeaders(r);
    r.SetHeader("Allow", "GET");
    return r;
  }
  if (rest.empty()) {
    // Relative, so it stays right behind a proxy that adds a path prefix.
    r.status = 308;
    r.SetHeader("Location", "ui/");
    return r;
  }
  std::string_view file = rest.substr(1);
  if (file.empty()) file = "index.html";
  const EmbeddedFile* f = FindConsoleFile(file);
  if (f == nullptr) {
    r = http::ErrorResponse(404, "not_found", "no such console file: " + std::string(file));
    AddConsoleHeaders(r);
    return r;
  }
  r.SetHeader("ETag", f->etag);
  // The page is small and changes with the binary: always revalidated, then a 304.
  r.SetHeader("Cache-Control", "no-cache");
  if (const std::string* match = request.FindHeader("if-none-match"); match && *match == f->etag) {
    r.status = 304;
    return r;
  }
  r.status = 200;
  r.SetHeader("Content-Type", f->content_type);
  r.body.assign(f->data, f->size);
  return r;
}

}  // namespace structure::server
