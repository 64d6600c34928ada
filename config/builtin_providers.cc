#include "config/builtin_providers.h"

namespace structure::config {
namespace {

struct Builtin {
  const char* kind;
  const char* model;  // what `--model` replaces; a model every account of the kind can use
  bool needs_base_url = false;
};

// openai-compatible servers (vLLM, llama.cpp) serve whatever they loaded; llama.cpp ignores the
// name and vLLM needs its served name, given with --model. Where such a server listens only the
// user knows: --base-url.
constexpr Builtin kBuiltins[] = {
    {"openai", "gpt-4o-mini"},
    {"anthropic", "claude-haiku-4-5"},
    {"gemini", "gemini-2.5-flash"},
    {"ollama", "llama3.1"},
    {"openrouter", "openai/gpt-4o-mini"},
    {"openai-compatible", "default", true},
};

}  // namespace

std::string DefaultProfileFor(std::string_view kind) {
  if (kind == "anthropic") return "anthropic-strict";
  if (kind == "gemini") return "gemini";
  if (kind == "ollama") return "ollama";
  if (kind == "openai-compatible" || kind == "vllm") return "vllm";
  if (kind == "llamacpp" || kind == "llamafile") return "llamacpp";
  return "openai-strict";  // openai, openrouter (require_parameters keeps strict endpoints)
}

std::optional<ProviderConfig> BuiltinProvider(std::string_view name) {
  for (const Builtin& b : kBuiltins) {
    if (name != b.kind) continue;
    ProviderConfig p;
    p.name = b.kind;
    p.kind = b.kind;
    p.model = b.model;
    p.profile = DefaultProfileFor(b.kind);
    return p;
  }
  return std::nullopt;
}

bool BuiltinNeedsBaseUrl(std::string_view name) {
  for (const Builtin& b : kBuiltins) {
    if (name == b.kind) return b.needs_base_url;
  }
  return false;
}

const std::vector<std::string>& BuiltinProviderNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Builtin& b : kBuiltins) v.push_back(b.kind);
    return v;
  }();
  return names;
}

}  // namespace structure::config
