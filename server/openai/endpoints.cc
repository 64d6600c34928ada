#include "server/openai/endpoints.h"

namespace structure::server::openai {
namespace {

struct Unserved {
  const char* prefix;  // the path, or the path and a '/' for its sub-resources
  const char* api;
};

constexpr Unserved kUnserved[] = {
    {"/v1/responses/", "OpenAI's stored responses (nothing is stored here)"},
    {"/v1/chat/completions/", "OpenAI's stored chat completions"},
    {"/v1/completions", "OpenAI's legacy Completions API"},
    {"/v1/embeddings", "embeddings"},
    {"/v1/moderations", "moderations"},
    {"/v1/assistants", "the Assistants API"},
    {"/v1/threads", "the Assistants API"},
    {"/v1/batches", "the Batch API"},
    {"/v1/files", "files"},
    {"/v1/uploads", "uploads"},
    {"/v1/images", "images"},
    {"/v1/audio", "audio"},
    {"/v1/fine_tuning", "fine-tuning"},
    {"/v1/vector_stores", "vector stores"},
    {"/v1/realtime", "the Realtime API"},
    {"/v1/conversations", "conversations"},
};

bool Under(const std::string& path, const std::string& prefix) {
  if (path.compare(0, prefix.size(), prefix) != 0) return false;
  return path.size() == prefix.size() || prefix.back() == '/' || path[prefix.size()] == '/';
}

}  // namespace

bool IsOpenAiRoute(const std::string& path) {
  return path == "/v1/chat/completions" || path == "/v1/responses" || path == "/v1/models" ||
         Under(path, "/v1/models/");
}

std::string WithoutTrailingSlash(const std::string& path) {
  if (path == "/v1/chat/completions/" || path == "/v1/responses/") {
    return path.substr(0, path.size() - 1);
  }
  return path;
}

std::optional<std::string> UnservedOpenAiPath(const std::string& method, const std::string& path) {
  for (const Unserved& u : kUnserved) {
    if (!Under(path, u.prefix)) continue;
    return method + " " + path + " is " + u.api +
           ", which this server does not serve: it answers structured output on POST "
           "/v1/chat/completions and POST /v1/responses, and GET /v1/models; with an OpenAI SDK, "
           "call chat.completions.parse or responses.parse";
  }
  return std::nullopt;
}

}  // namespace structure::server::openai
