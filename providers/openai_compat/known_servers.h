// OpenAI-compatible services the engine knows by their host: the capability profile they take
// when the config names none, and the refusal with which a service that takes no
// response_format json_schema answers one. One table; docs/providers.md lists it.
#pragma once

#include <span>
#include <string_view>

namespace structure::providers {

struct KnownServer {
  const char* host;     // the base URL's host, lower case ("api.deepseek.com")
  const char* name;     // "DeepSeek"
  const char* profile;  // the capability profile it gets when the config names none
  const char* refusal;  // a fragment of its 400 for response_format json_schema (case-insensitive)
  const char* source;   // where the facts come from
};

std::span<const KnownServer> KnownServers();

// The row whose host is the host of `base_url`, or nullptr.
const KnownServer* KnownServerAt(std::string_view base_url);

// True when an error answer is a known server's refusal of response_format json_schema: the
// service takes json_object only (profile "json").
bool IsSchemaFormRefused(int http_status, std::string_view message);

}  // namespace structure::providers
