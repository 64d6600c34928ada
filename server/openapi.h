// The OpenAPI 3.1 description of the HTTP API (served at GET /v1/openapi.json).
#pragma once

#include "base/json.h"

namespace structure::server {

// The document; every path and status it lists is one the Api answers.
Json OpenApiDocument();

}  // namespace structure::server
