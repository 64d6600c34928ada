// The OpenAI API's paths as this server sees them: those it answers (in OpenAI's shapes, errors
// included) and the other OpenAI resources, which it names in a 404 an OpenAI SDK user can act
// on instead of a bare "no such endpoint".
#pragma once

#include <optional>
#include <string>

namespace structure::server::openai {

// POST /v1/chat/completions, POST /v1/responses, GET /v1/models and GET /v1/models/{id}.
bool IsOpenAiRoute(const std::string& path);

// `path` with the trailing '/' of "/v1/chat/completions/" and "/v1/responses/" removed: the same
// routes (clients that join a base URL to a path may send the slash). Any other path unchanged.
std::string WithoutTrailingSlash(const std::string& path);

// For a path of the OpenAI API this server does not answer (/v1/embeddings, /v1/responses/{id},
// /v1/chat/completions/{id}, ...): the 404's message, which names the API and what to call
// instead. std::nullopt for any other path.
std::optional<std::string> UnservedOpenAiPath(const std::string& method, const std::string& path);

}  // namespace structure::server::openai
