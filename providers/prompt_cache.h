// Prompt caching: which part of a call a provider can keep between calls, and how long that
// part must be. Figures are the providers' documented defaults (docs/providers.md, "Prompt
// caching"); the capability profile's cache_min_tokens overrides them per model.
#pragma once

#include <cstdint>
#include <string_view>

#include "providers/call.h"
#include "providers/endpoint.h"

namespace structure::providers {

// The documented minimum cacheable prefix, in tokens, of `model` at a provider of `kind`:
// Anthropic 4096 for Claude Opus 4.5 / 4.6 and Haiku 4.5, 2048 for Claude Haiku 3 / 3.5, 1024
// for the other Claude models; OpenAI 1024; Gemini 4096 for 2.5 Pro and 3 Pro, 1024 for the
// others; 0 (no prompt cache) for Ollama and OpenAI-compatible servers. Model names are matched
// by substring, so dated ("claude-haiku-4-5-20251001") and prefixed ("anthropic/...") names
// count too.
int64_t DocumentedCacheMinTokens(ProviderKind kind, std::string_view model);

// The estimated tokens (bytes / 4) of the part of `call` that is the same on every call on its
// schema: the system prompt and the schemas it carries. The user's turns are not counted.
int64_t EstimatePrefixTokens(const ProviderCall& call);

// True when a provider that caches only what is marked (Anthropic) should mark the call's
// system prompt: caching is on (call.cache_min_tokens >= 0) and the prefix reaches the minimum
// (call.cache_min_tokens, or the documented one when it is 0).
bool ShouldMarkCachePrefix(const ProviderCall& call, ProviderKind kind);

}  // namespace structure::providers
