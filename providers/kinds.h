// One place per provider kind: its name, where it lives, its key, its default capability profile,
// its wire format, its batch API and the path the simulator answers it on. Config, `structure
// providers`, `config check`, the endpoints, batch and the simulator read these facts here and
// nowhere else. The model families of each kind are in providers/models.h.
#pragma once

#include <span>
#include <string_view>

#include "base/status.h"
#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/http.h"

namespace structure::providers {

// The request and reply format a kind speaks. The simulator answers each one on its path.
enum class Wire {
  kOpenAiChat,         // POST /v1/chat/completions
  kAnthropicMessages,  // POST /v1/messages
  kGeminiGenerate,     // POST /v1beta/models/{model}:generateContent
  kOllamaChat,         // POST /api/chat
};

// The batch API a kind offers.
enum class BatchApi { kNone, kOpenAi, kAnthropic, kGemini };

using BuildFn = Result<HttpRequest> (*)(const ProviderCall&, const Endpoint&);
using ParseFn = Result<ProviderReply> (*)(const HttpResponse&, ProviderKind);

struct KindInfo {
  ProviderKind kind;
  std::string_view name;   // config `kind` and `--provider`
  std::string_view alias;  // also accepted as the kind's name ("google"); may be empty
  std::string_view title;  // "OpenAI chat completions"
  // The official base URL (local servers: their default address), without the version path.
  std::string_view base_url;
  std::string_view base_url_env;  // a variable that replaces base_url ("OLLAMA_HOST"), or empty
  std::string_view key_env;       // the official SDK's key variable; empty = no key needed
  std::string_view key_env_alt;   // read when key_env is unset ("GOOGLE_API_KEY"), or empty
  std::string_view profile;       // capability profile when the config names none
  Wire wire;
  std::string_view path;  // request path below the base URL ("{model}" stands for the model)
  BuildFn build;
  ParseFn parse;
  BatchApi batch;
  // `--provider NAME` with no config file: the model it uses (empty = not built in), and whether
  // it needs --base-url (a server of unknown address).
  std::string_view builtin_model;
  bool builtin_needs_base_url = false;
  // The kind whose model families apply (the OpenAI-compatible servers share one list).
  ProviderKind families;
};

// Every kind, in the order docs/providers.md lists them.
std::span<const KindInfo> Kinds();

// The row of a kind (every ProviderKind has one).
const KindInfo& InfoOf(ProviderKind kind);

// The row whose name or alias is `name`; null for anything else.
const KindInfo* FindKind(std::string_view name);

// The names of every kind, comma-separated, as messages list them.
std::string KindNames();

}  // namespace structure::providers
