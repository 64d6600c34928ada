#include "providers/kinds.h"

#include "providers/anthropic/anthropic_messages.h"
#include "providers/gemini/gemini_generate.h"
#include "providers/ollama/ollama_chat.h"
#include "providers/openai/openai_chat.h"
#include "providers/openai_compat/openai_compat.h"
#include "providers/openai_compat/openrouter.h"

namespace structure::providers {
namespace {

template <Result<ProviderReply> (*F)(const HttpResponse&)>
Result<ProviderReply> ParseIgnoringKind(const HttpResponse& r, ProviderKind) {
  return F(r);
}

constexpr std::string_view kChatPath = "/v1/chat/completions";

// Base URLs, key variables and paths are the providers' documented ones (docs/providers.md,
// "Configuring a provider"); local servers listen where their own docs say: `vllm serve` on 8000,
// `llama-server` and llamafile on 8080, Ollama on 11434.
const KindInfo kKinds[] = {
    {ProviderKind::kOpenAi, "openai", "", "OpenAI chat completions", "https://api.openai.com", "",
     "OPENAI_API_KEY", "", "openai-strict", Wire::kOpenAiChat, kChatPath, openai_chat::BuildRequest,
     ParseIgnoringKind<openai_chat::ParseReply>, BatchApi::kOpenAi, "gpt-4o-mini", false,
     ProviderKind::kOpenAi},
    {ProviderKind::kAnthropic, "anthropic", "", "Anthropic messages", "https://api.anthropic.com",
     "", "ANTHROPIC_API_KEY", "", "anthropic-strict", Wire::kAnthropicMessages, "/v1/messages",
     anthropic_messages::BuildRequest, ParseIgnoringKind<anthropic_messages::ParseReply>,
     BatchApi::kAnthropic, "claude-haiku-4-5", false, ProviderKind::kAnthropic},
    {ProviderKind::kGemini, "gemini", "google", "Gemini generateContent",
     "https://generativelanguage.googleapis.com", "", "GEMINI_API_KEY", "GOOGLE_API_KEY", "gemini",
     Wire::kGeminiGenerate, "/v1beta/models/{model}:generateContent", gemini_generate::BuildRequest,
     ParseIgnoringKind<gemini_generate::ParseReply>, BatchApi::kGemini, "gemini-2.5-flash", false,
     ProviderKind::kGemini},
    {ProviderKind::kOllama, "ollama", "", "Ollama", "http://127.0.0.1:11434", "OLLAMA_HOST", "", "",
     "ollama", Wire::kOllamaChat, "/api/chat", ollama_chat::BuildRequest,
     ParseIgnoringKind<ollama_chat::ParseReply>, BatchApi::kNone, "llama3.1", false,
     ProviderKind::kOllama},
    // Whatever the server loaded: llama.cpp ignores the model name, vLLM needs its served name.
    {ProviderKind::kOpenAiCompat, "openai-compatible", "openai-compat",
     "any OpenAI-compatible server", "http://127.0.0.1:8000", "", "", "", "vllm", Wire::kOpenAiChat,
     kChatPath, openai_compat::BuildRequest, openai_compat::ParseReply, BatchApi::kNone, "default",
     true, ProviderKind::kOpenAiCompat},
    {ProviderKind::kOpenRouter, "openrouter", "", "OpenRouter", "https://openrouter.ai/api", "",
     "OPENROUTER_API_KEY", "", "openai-strict", Wire::kOpenAiChat, kChatPath,
     openrouter::BuildRequest, ParseIgnoringKind<openrouter::ParseReply>, BatchApi::kNone,
     "openai/gpt-4o-mini", false, ProviderKind::kOpenRouter},
    {ProviderKind::kVllm, "vllm", "", "vLLM", "http://127.0.0.1:8000", "", "", "", "vllm",
     Wire::kOpenAiChat, kChatPath, openai_compat::BuildRequest, openai_compat::ParseReply,
     BatchApi::kNone, "", false, ProviderKind::kOpenAiCompat},
    {ProviderKind::kLlamaCpp, "llamacpp", "llama.cpp", "llama.cpp server (`llama-server`)",
     "http://127.0.0.1:8080", "", "", "", "llamacpp", Wire::kOpenAiChat, kChatPath,
     openai_compat::BuildRequest, openai_compat::ParseReply, BatchApi::kNone, "", false,
     ProviderKind::kOpenAiCompat},
    {ProviderKind::kLlamafile, "llamafile", "", "llamafile", "http://127.0.0.1:8080", "", "", "",
     "llamacpp", Wire::kOpenAiChat, kChatPath, openai_compat::BuildRequest,
     openai_compat::ParseReply, BatchApi::kNone, "", false, ProviderKind::kOpenAiCompat},
};

}  // namespace

std::span<const KindInfo> Kinds() { return kKinds; }

const KindInfo& InfoOf(ProviderKind kind) {
  for (const KindInfo& k : kKinds) {
    if (k.kind == kind) return k;
  }
  return kKinds[0];  // unreachable: every enumerator has a row (KindsTest checks it)
}

const KindInfo* FindKind(std::string_view name) {
  for (const KindInfo& k : kKinds) {
    if (name == k.name || (!k.alias.empty() && name == k.alias)) return &k;
  }
  return nullptr;
}

std::string KindNames() {
  std::string out;
  for (const KindInfo& k : kKinds) out += (out.empty() ? "" : ", ") + std::string(k.name);
  return out;
}

}  // namespace structure::providers
