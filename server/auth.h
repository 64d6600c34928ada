// API-key authentication and tenant/project authorization for the HTTP API. A key maps to one
// tenant and the projects it may use; the tenant is never taken from the request.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "http/http_message.h"
#include "registry/registered_schema.h"
#include "server/server_config.h"
#include "structure/status.h"

namespace structure::server {

struct Principal {
  std::string key_name;
  std::string tenant;
  std::vector<std::string> projects;  // "*" = all
};

class KeyRing {
 public:
  explicit KeyRing(std::vector<ApiKey> keys) : keys_(std::move(keys)) {}

  // The key comes from "Authorization: Bearer KEY" or "X-API-Key: KEY". kUnauthenticated
  // ("missing API key" / "invalid API key") otherwise; the message never echoes the key.
  Result<Principal> Authenticate(const http::HttpRequest& request) const;

 private:
  std::vector<ApiKey> keys_;
};

// The registry scope for `project` ("" = the tenant level). kInvalidArgument when `project` is
// not an id (base/id.h); kPermissionDenied when the key may not use that project, the message
// the same whether or not the project exists.
Result<registry::Scope> Authorize(const Principal& principal, std::string_view project);

// The answer to a failed Authorize: 400 bad_request for a project that is not an id, else 403.
http::HttpResponse ScopeRefused(const Status& status);

}  // namespace structure::server
