#include "providers/endpoint.h"

#include <cctype>
#include <cstdlib>

#include "providers/kinds.h"

namespace structure::providers {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

Result<ProviderKind> ParseProviderKind(std::string_view name) {
  if (const KindInfo* k = FindKind(name)) return k->kind;
  return InvalidArgument("unknown provider '" + std::string(name) + "' (expected " + KindNames() +
                         ")");
}

std::string_view ProviderKindName(ProviderKind kind) { return InfoOf(kind).name; }

Result<OpenAiApi> ParseOpenAiApi(std::string_view name) {
  if (name == "chat") return OpenAiApi::kChat;
  if (name == "responses") return OpenAiApi::kResponses;
  return InvalidArgument("must be \"responses\" or \"chat\", not '" + std::string(name) + "'");
}

std::string_view OpenAiApiName(OpenAiApi api) {
  switch (api) {
    case OpenAiApi::kChat:
      return "chat";
    case OpenAiApi::kResponses:
      return "responses";
    case OpenAiApi::kByModel:
      break;
  }
  return "by model";
}

std::string NormalizeBaseUrl(std::string_view url) {
  while (EndsWith(url, "/")) url.remove_suffix(1);
  if (EndsWith(url, "/v1"))
    url.remove_suffix(3);
  else if (EndsWith(url, "/v1beta"))
    url.remove_suffix(7);
  while (EndsWith(url, "/")) url.remove_suffix(1);
  return std::string(url);
}

std::string KeyEnvNames(ProviderKind kind) {
  const KindInfo& k = InfoOf(kind);
  if (k.key_env_alt.empty()) return std::string(k.key_env);
  return std::string(k.key_env) + " or " + std::string(k.key_env_alt);
}

namespace {

std::string Env(const GetEnvFn& getenv_fn, const char* name) {
  const char* v = getenv_fn ? getenv_fn(name) : std::getenv(name);
  return v ? std::string(v) : std::string();
}

}  // namespace

std::string KeyEnvFor(ProviderKind kind, std::string_view key_env, const GetEnvFn& getenv_fn) {
  if (!key_env.empty()) return std::string(key_env);
  const KindInfo& k = InfoOf(kind);
  if (!k.key_env_alt.empty() && Env(getenv_fn, std::string(k.key_env).c_str()).empty() &&
      !Env(getenv_fn, std::string(k.key_env_alt).c_str()).empty()) {
    return std::string(k.key_env_alt);
  }
  return std::string(k.key_env);
}

std::string DefaultBaseUrl(ProviderKind kind, const GetEnvFn& getenv_fn) {
  const KindInfo& k = InfoOf(kind);
  std::string url =
      k.base_url_env.empty() ? std::string() : Env(getenv_fn, std::string(k.base_url_env).c_str());
  if (url.empty()) return std::string(k.base_url);
  // OLLAMA_HOST may be "host:port" without a scheme.
  if (url.find("://") == std::string::npos) url = "http://" + url;
  return url;
}

Result<Endpoint> EndpointFromEnv(ProviderKind kind, std::string_view base_url_override,
                                 const GetEnvFn& getenv_fn, std::string_view key_env) {
  Endpoint e;
  e.kind = kind;
  e.base_url = DefaultBaseUrl(kind, getenv_fn);
  std::string key_var = KeyEnvFor(kind, key_env, getenv_fn);
  if (!key_var.empty()) e.api_key = Env(getenv_fn, key_var.c_str());
  if (!base_url_override.empty()) e.base_url = std::string(base_url_override);
  e.base_url = NormalizeBaseUrl(e.base_url);
  if (!key_var.empty() && e.api_key.empty() && base_url_override.empty()) {
    std::string names = key_env.empty() ? KeyEnvNames(kind) : std::string(key_env);
    return Status(Code::kUnauthenticated, "no API key: set " + names);
  }
  return e;
}

KeyStatus DescribeKey(ProviderKind kind, std::string_view key_env, std::string_view base_url,
                      const GetEnvFn& getenv_fn) {
  KeyStatus s;
  s.variable = KeyEnvFor(kind, key_env, getenv_fn);
  if (s.variable.empty()) return s;
  std::string url = base_url.empty() ? DefaultBaseUrl(kind, getenv_fn) : std::string(base_url);
  if (!Env(getenv_fn, s.variable.c_str()).empty()) {
    s.state = KeyState::kSet;
  } else {
    s.state = IsLoopbackUrl(url) ? KeyState::kNotNeeded : KeyState::kNotSet;
  }
  return s;
}

std::string_view KeyStateName(KeyState state) {
  switch (state) {
    case KeyState::kSet:
      return "set";
    case KeyState::kNotSet:
      return "not set";
    case KeyState::kNotNeeded:
      return "not needed";
  }
  return "not needed";
}

Status CheckBaseUrl(std::string_view url) {
  auto bad = [&](const std::string& why) {
    return InvalidArgument("not an http(s) URL: '" + std::string(url) + "' (" + why + ")");
  };
  std::string_view rest = url;
  size_t scheme_end = rest.find("://");
  if (scheme_end == std::string_view::npos) return bad("expected http://HOST[:PORT][/PATH]");
  std::string scheme(rest.substr(0, scheme_end));
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme != "http" && scheme != "https") return bad("the scheme must be http or https");
  rest.remove_prefix(scheme_end + 3);
  for (char c : rest) {
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
      return bad("it contains a space or control character");
    if (c == '?' || c == '#') return bad("a base URL has no query or fragment");
  }
  std::string_view authority = rest.substr(0, rest.find('/'));
  if (authority.find('@') != std::string_view::npos)
    return bad("credentials belong in the key variable");
  std::string_view host = authority, port;
  if (!authority.empty() && authority[0] == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return bad("unclosed [ in the host");
    host = authority.substr(0, close + 1);
    std::string_view after = authority.substr(close + 1);
    if (!after.empty() && after[0] != ':') return bad("unexpected text after the host");
    if (!after.empty()) port = after.substr(1);
    if (host.size() <= 2) return bad("no host");
  } else if (size_t colon = authority.find(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
    if (port.empty()) return bad("empty port");
  }
  if (host.empty()) return bad("no host");
  if (authority.size() > host.size()) {
    if (port.empty() || port.size() > 5) return bad("the port must be 1..65535");
    int n = 0;
    for (char c : port) {
      if (c < '0' || c > '9') return bad("the port must be 1..65535");
      n = n * 10 + (c - '0');
    }
    if (n < 1 || n > 65535) return bad("the port must be 1..65535");
  }
  return Status::Ok();
}

bool IsLoopbackUrl(std::string_view url) {
  size_t p = url.find("://");
  if (p == std::string_view::npos) return false;
  std::string_view host = url.substr(p + 3);
  host = host.substr(0, host.find('/'));
  if (host.rfind("[::1]", 0) == 0) return true;
  host = host.substr(0, host.find(':'));
  return host == "localhost" || host.rfind("127.", 0) == 0;
}

}  // namespace structure::providers
