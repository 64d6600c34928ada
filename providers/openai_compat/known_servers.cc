#include "providers/openai_compat/known_servers.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "providers/transport/network.h"

namespace structure::providers {
namespace {

// DeepSeek's JSON output is response_format {"type": "json_object"} with the schema described
// in the prompt ("Set the response_format parameter to {'type': 'json_object'}. Include the
// word 'json' in the system or user prompt, and provide an example of the desired JSON
// format"); a json_schema format is answered 400 "This response_format type is unavailable
// now".
constexpr KnownServer kServers[] = {
    {"api.deepseek.com", "DeepSeek", "json", "This response_format type is unavailable now",
     "https://api-docs.deepseek.com/guides/json_mode"},
};

bool ContainsNoCase(std::string_view text, std::string_view part) {
  auto it = std::search(text.begin(), text.end(), part.begin(), part.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
  return it != text.end();
}

}  // namespace

std::span<const KnownServer> KnownServers() { return kServers; }

const KnownServer* KnownServerAt(std::string_view base_url) {
  std::string host = HostOf(base_url);
  for (const KnownServer& s : kServers) {
    if (host == s.host) return &s;
  }
  return nullptr;
}

bool IsSchemaFormRefused(int http_status, std::string_view message) {
  if (http_status != 400) return false;
  for (const KnownServer& s : kServers) {
    if (ContainsNoCase(message, s.refusal)) return true;
  }
  return false;
}

}  // namespace structure::providers
