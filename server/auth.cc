#include "server/auth.h"

#include "base/id.h"
#include "base/sha256.h"

namespace structure::server {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The presented key, or "" when the request carries none.
std::string_view PresentedKey(const http::HttpRequest& request) {
  if (const std::string* auth = request.FindHeader("authorization")) {
    std::string_view v = Trim(*auth);
    constexpr std::string_view kBearer = "bearer ";
    if (v.size() > kBearer.size()) {
      bool bearer = true;
      for (size_t i = 0; i < kBearer.size(); ++i) {
        char c = v[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        bearer = bearer && c == kBearer[i];
      }
      if (bearer) return Trim(v.substr(kBearer.size()));
    }
    return "";
  }
  if (const std::string* key = request.FindHeader("x-api-key")) return Trim(*key);
  return "";
}

}  // namespace

Result<Principal> KeyRing::Authenticate(const http::HttpRequest& request) const {
  std::string_view key = PresentedKey(request);
  if (key.empty()) {
    return Status(Code::kUnauthenticated,
                  "missing API key: send 'Authorization: Bearer KEY' or 'X-API-Key: KEY'");
  }
  std::string digest = Sha256Hex(key);
  const ApiKey* match = nullptr;
  // Every key is compared (no early exit) so timing does not tell how far a guess got.
  for (const ApiKey& k : keys_) {
    if (ConstantTimeEquals(digest, k.sha256)) match = &k;
  }
  if (match == nullptr) return Status(Code::kUnauthenticated, "invalid API key");
  return Principal{match->name, match->tenant, match->projects};
}

Result<registry::Scope> Authorize(const Principal& principal, std::string_view project) {
  if (project.empty()) return registry::Scope{principal.tenant, ""};
  STRUCTURE_RETURN_IF_ERROR(CheckId(project, "project"));
  for (const std::string& p : principal.projects) {
    if (p == "*" || p == project) return registry::Scope{principal.tenant, std::string(project)};
  }
  return Status(Code::kPermissionDenied,
                "this API key may not use project '" + std::string(project) + "'");
}

http::HttpResponse ScopeRefused(const Status& status) {
  if (status.code() == Code::kInvalidArgument)
    return http::ErrorResponse(400, "bad_request", status.message());
  return http::ErrorResponse(403, "forbidden", status.message());
}

}  // namespace structure::server
