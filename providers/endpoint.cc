#include "providers/endpoint.h"

#include <cstdlib>

namespace structure::providers {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

Result<ProviderKind> ParseProviderKind(std::string_view name) {
  if (name == "openai") return ProviderKind::kOpenAi;
  if (name == "anthropic") return ProviderKind::kAnthropic;
  if (name == "gemini" || name == "google") return ProviderKind::kGemini;
  if (name == "ollama") return ProviderKind::kOllama;
  if (name == "openai-compatible" || name == "openai-compat") return ProviderKind::kOpenAiCompat;
  if (name == "openrouter") return ProviderKind::kOpenRouter;
  if (name == "vllm") return ProviderKind::kVllm;
  if (name == "llamacpp" || name == "llama.cpp") return ProviderKind::kLlamaCpp;
  if (name == "llamafile") return ProviderKind::kLlamafile;
  return InvalidArgument("unknown provider '" + std::string(name) +
                         "' (expected openai, anthropic, gemini, ollama, openai-compatible, "
                         "openrouter, vllm, llamacpp, llamafile)");
}

std::string_view ProviderKindName(ProviderKind kind) {
  switch (kind) {
    case ProviderKind::kOpenAi: return "openai";
    case ProviderKind::kAnthropic: return "anthropic";
    case ProviderKind::kGemini: return "gemini";
    case ProviderKind::kOllama: return "ollama";
    case ProviderKind::kOpenAiCompat: return "openai-compatible";
    case ProviderKind::kOpenRouter: return "openrouter";
    case ProviderKind::kVllm: return "vllm";
    case ProviderKind::kLlamaCpp: return "llamacpp";
    case ProviderKind::kLlamafile: return "llamafile";
  }
  return "unknown";
}

std::string NormalizeBaseUrl(std::string_view url) {
  while (EndsWith(url, "/")) url.remove_suffix(1);
  if (EndsWith(url, "/v1")) url.remove_suffix(3);
  else if (EndsWith(url, "/v1beta")) url.remove_suffix(7);
  while (EndsWith(url, "/")) url.remove_suffix(1);
  return std::string(url);
}

Result<Endpoint> EndpointFromEnv(ProviderKind kind, std::string_view base_url_override,
                                 const GetEnvFn& getenv_fn) {
  auto env = [&](const char* name) -> std::string {
    const char* v = getenv_fn ? getenv_fn(name) : std::getenv(name);
    return v ? std::string(v) : std::string();
  };
  Endpoint e;
  e.kind = kind;
  std::string key_var;
  switch (kind) {
    case ProviderKind::kOpenAi:
      e.base_url = "https://api.openai.com";
      key_var = "OPENAI_API_KEY";
      break;
    case ProviderKind::kAnthropic:
      e.base_url = "https://api.anthropic.com";
      key_var = "ANTHROPIC_API_KEY";
      break;
    case ProviderKind::kGemini:
      e.base_url = "https://generativelanguage.googleapis.com";
      key_var = env("GEMINI_API_KEY").empty() ? "GOOGLE_API_KEY" : "GEMINI_API_KEY";
      break;
    case ProviderKind::kOpenRouter:
      e.base_url = "https://openrouter.ai/api";
      key_var = "OPENROUTER_API_KEY";
      break;
    case ProviderKind::kOllama: {
      std::string host = env("OLLAMA_HOST");
      if (host.empty()) host = "http://127.0.0.1:11434";
      if (host.find("://") == std::string::npos) host = "http://" + host;
      e.base_url = host;
      break;
    }
    case ProviderKind::kOpenAiCompat:
    case ProviderKind::kVllm:  // `vllm serve` listens on 8000
      e.base_url = "http://127.0.0.1:8000";
      break;
    case ProviderKind::kLlamaCpp:  // `llama-server` and llamafile listen on 8080
    case ProviderKind::kLlamafile:
      e.base_url = "http://127.0.0.1:8080";
      break;
  }
  if (!key_var.empty()) e.api_key = env(key_var.c_str());
  if (!base_url_override.empty()) e.base_url = std::string(base_url_override);
  e.base_url = NormalizeBaseUrl(e.base_url);
  if (!key_var.empty() && e.api_key.empty() && base_url_override.empty()) {
    return Status(Code::kUnauthenticated,
                  std::string(ProviderKindName(kind)) + ": no API key; set " +
                      (kind == ProviderKind::kGemini ? "GEMINI_API_KEY or GOOGLE_API_KEY"
                                                     : key_var));
  }
  return e;
}

}  // namespace structure::providers
