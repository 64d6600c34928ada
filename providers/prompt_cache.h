// Prompt caching: which part of a call a provider can keep between calls, and how long that
// part must be. Figures are the providers' documented defaults (docs/providers.md, "Prompt
// caching"); the capability profile's cache_min_tokens overrides them per model.
#pragma once

#include <cstdint>
#include <string_view>

#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/models.h"

namespace structure::providers {

// The documented minimum cacheable prefix, in tokens, of `model` at a provider of `kind`, from
// the built-in model table (providers/models.h, cache_min_tokens); 0 = no prompt cache.
int64_t DocumentedCacheMinTokens(ProviderKind kind, std::string_view model);

// The estimated tokens (bytes / 4) of the part of `call` that is the same on every call on its
// schema: the system prompt and the schemas it carries. The user's turns are not counted.
int64_t EstimatePrefixTokens(const ProviderCall& call);

// True when the call's system prompt should carry a cache mark: the family caches only what is
// marked (cache_control: Claude, direct or through OpenRouter), caching is on
// (call.cache_min_tokens >= 0) and the prefix reaches the minimum (call.cache_min_tokens, or the
// family's documented one when it is 0).
bool ShouldMarkCachePrefix(const ProviderCall& call, const ModelFamily& family);

}  // namespace structure::providers
