#include "http/http_message.h"

#include <cctype>

#include "base/hex.h"
#include "base/json.h"

namespace structure::http {
std::string OriginForm(std::string_view target) {
  size_t scheme_end = target.find("://");
  if (target.empty() || target[0] == '/' || scheme_end == std::string_view::npos) {
    return std::string(target);
  }
  for (size_t i = 0; i < scheme_end; ++i) {
    char c = target[i];
    bool scheme_char =
        std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
    if (!scheme_char) return std::string(target);
  }
  std::string_view rest = target.substr(scheme_end + 3);
  size_t path = rest.find_first_of("/?");
  if (path == std::string_view::npos) return "/";
  if (rest[path] == '?') return "/" + std::string(rest.substr(path));
  return std::string(rest.substr(path));
}

bool HeaderNameEquals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

const std::string* HttpRequest::FindHeader(std::string_view name) const {
  for (const auto& [n, v] : headers) {
    if (HeaderNameEquals(n, name)) return &v;
  }
  return nullptr;
}

std::optional<std::string> HttpRequest::QueryParam(std::string_view name) const {
  std::string_view rest = query;
  while (!rest.empty()) {
    size_t amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    size_t eq = pair.find('=');
    std::string key = PercentDecode(pair.substr(0, eq), PlusIs::kSpace);
    if (key != name) continue;
    return eq == std::string_view::npos ? std::string()
                                        : PercentDecode(pair.substr(eq + 1), PlusIs::kSpace);
  }
  return std::nullopt;
}

void HttpResponse::SetHeader(std::string_view name, std::string value) {
  for (auto& [n, v] : headers) {
    if (HeaderNameEquals(n, name)) {
      v = std::move(value);
      return;
    }
  }
  headers.emplace_back(std::string(name), std::move(value));
}

const std::string* HttpResponse::FindHeader(std::string_view name) const {
  for (const auto& [n, v] : headers) {
    if (HeaderNameEquals(n, name)) return &v;
  }
  return nullptr;
}

HttpResponse JsonResponse(int status, std::string body) {
  HttpResponse r;
  r.status = status;
  r.headers.emplace_back("Content-Type", "application/json");
  r.body = std::move(body);
  return r;
}

HttpResponse ErrorResponse(int status, const std::string& code, const std::string& message) {
  Json body = Json::MakeObject();
  body.set("status", "error");
  body.set("code", code);
  Json errors = Json::MakeArray();
  errors.push_back(message);
  body.set("errors", std::move(errors));
  return JsonResponse(status, ToJson(body));
}

std::string_view ReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 204:
      return "No Content";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 413:
      return "Payload Too Large";
    case 422:
      return "Unprocessable Entity";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    case 529:
      return "Site Overloaded";
    default:
      return "Unknown";
  }
}

}  // namespace structure::http
