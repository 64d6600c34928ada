// Where a provider lives and how to authenticate: kind, base URL, key. Keys come from the
// environment variables the official SDKs use and are never logged.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "structure/status.h"

namespace structure::providers {

enum class ProviderKind {
  kOpenAi,        // OpenAI chat completions
  kAnthropic,     // Anthropic messages
  kGemini,        // Gemini generateContent
  kOllama,        // Ollama /api/chat
  kOpenAiCompat,  // any OpenAI-compatible server: response_format json_schema, max_tokens
  kOpenRouter,    // OpenRouter (OpenAI-style, require_parameters)
  kVllm,          // vLLM: OpenAI-compatible, response_format json_schema
  kLlamaCpp,      // llama.cpp server: OpenAI-compatible, the schema in a top-level json_schema
  kLlamafile,     // llamafile: OpenAI-compatible, response_format json_object with the schema
};

class ModelTable;

// Which of OpenAI's two APIs a call goes to: chat completions (POST /v1/chat/completions) or the
// Responses API (POST /v1/responses). kByModel: the model family's default (the model table's
// `api` column).
enum class OpenAiApi { kByModel, kChat, kResponses };

// "chat", "responses"; kInvalidArgument naming both for anything else.
Result<OpenAiApi> ParseOpenAiApi(std::string_view name);
std::string_view OpenAiApiName(OpenAiApi api);  // "chat", "responses", "by model"

struct Endpoint {
  ProviderKind kind = ProviderKind::kOpenAi;
  // scheme://host[:port][/prefix], without the API version path: each wire format appends its
  // own ("/v1/chat/completions", "/v1/messages", "/v1beta/models/...", "/api/chat").
  std::string base_url;
  std::string api_key;  // may be empty (Ollama, local OpenAI-compatible servers, the simulator)
  std::string anthropic_version = "2023-06-01";
  // Gemini: use the legacy OpenAPI `responseSchema` instead of `responseJsonSchema`.
  bool gemini_legacy_schema = false;
  // OpenAI: the API calls go to (config `api`); other kinds ignore it.
  OpenAiApi openai_api = OpenAiApi::kByModel;
  int64_t timeout_ms = 120'000;  // per attempt
  // The model table the wire formats consult (providers/models.h); null = the built-in one.
  std::shared_ptr<const ModelTable> models;
};

// "openai", "anthropic", "gemini" (or "google"), "ollama", "openai-compatible" (or
// "openai-compat"), "openrouter", "vllm", "llamacpp" (or "llama.cpp"), "llamafile".
// kInvalidArgument for anything else.
Result<ProviderKind> ParseProviderKind(std::string_view name);
std::string_view ProviderKindName(ProviderKind kind);

using GetEnvFn = std::function<const char*(const char*)>;

// Builds an endpoint with the default base URL and the key from the environment:
// OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY (else GOOGLE_API_KEY), OPENROUTER_API_KEY;
// Ollama's URL from OLLAMA_HOST ("host:port" or a URL). A non-empty `key_env` names the
// variable to read instead. A non-empty `base_url_override` replaces the URL (a trailing "/v1"
// or "/v1beta" is dropped since formats add it). kUnauthenticated naming the variable when a
// hosted provider has no key and no override points elsewhere.
Result<Endpoint> EndpointFromEnv(ProviderKind kind, std::string_view base_url_override = {},
                                 const GetEnvFn& getenv_fn = nullptr,
                                 std::string_view key_env = {});

// The official base URL of a kind (Ollama's from OLLAMA_HOST, "host:port" or a URL; local
// OpenAI-compatible servers http://127.0.0.1:8000), before NormalizeBaseUrl.
std::string DefaultBaseUrl(ProviderKind kind, const GetEnvFn& getenv_fn = nullptr);

// The official SDK's key variable(s) for a kind, as a message names them ("OPENAI_API_KEY",
// "GEMINI_API_KEY or GOOGLE_API_KEY"); empty for kinds without a key (Ollama, local servers).
std::string KeyEnvNames(ProviderKind kind);

// The variable a key is read from: `key_env` when set, else the SDK's (for Gemini the first of
// GEMINI_API_KEY, GOOGLE_API_KEY that is set); empty for kinds without a key.
std::string KeyEnvFor(ProviderKind kind, std::string_view key_env,
                      const GetEnvFn& getenv_fn = nullptr);

// Whether a provider's key is there, as `structure providers` and `config check` show it.
enum class KeyState { kSet, kNotSet, kNotNeeded };
struct KeyStatus {
  std::string variable;  // the variable the key is read from; empty when the kind takes none
  KeyState state = KeyState::kNotNeeded;
};

// The key of a provider of `kind` configured with `key_env` (empty: the SDK's variable) at
// `base_url` (empty: the kind's): set or not set; not needed for a kind without a key variable,
// and for a local address (127.x, localhost, [::1]) whose variable is unset.
KeyStatus DescribeKey(ProviderKind kind, std::string_view key_env, std::string_view base_url,
                      const GetEnvFn& getenv_fn = nullptr);
std::string_view KeyStateName(KeyState state);  // "set", "not set", "not needed"

// kInvalidArgument unless `url` is http:// or https:// with a host, an optional port 1..65535 and
// an optional path (no spaces, query or fragment): "not an http(s) URL: 'x'".
Status CheckBaseUrl(std::string_view url);

// True when the URL's host is 127.x.x.x, localhost or [::1].
bool IsLoopbackUrl(std::string_view url);

// Drops a trailing "/" and a trailing "/v1" or "/v1beta".
std::string NormalizeBaseUrl(std::string_view url);

}  // namespace structure::providers
