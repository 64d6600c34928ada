// The simulator's prompt cache: how much of a request's prompt the provider has seen before,
// counted the way each provider reports it. OpenAI and Gemini cache implicitly: the longest
// prefix seen before, in blocks of 128 tokens, once it reaches the model's minimum. Anthropic
// caches only up to a cache_control breakpoint: a prefix seen before is read, a new one is
// written, one shorter than the model's minimum is neither. Ollama caches nothing. Tokens are
// the simulator's estimate (bytes / 4) over the same bytes as EstimateInputTokens.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_set>

#include "sim/chat.h"

namespace structure::sim {

struct CacheUsage {
  int64_t read = 0;     // prompt tokens read from the cache
  int64_t written = 0;  // prompt tokens written to it (Anthropic cache creation)
};

// Thread-safe. Forgets everything after a million prefixes (a long benchmark stays bounded).
class PromptCache {
 public:
  // What `request` reads from and writes to the cache, remembering its prefixes.
  // `min_tokens` is the smallest prefix the provider caches for the request's model.
  CacheUsage Account(const ChatRequest& request, int64_t min_tokens);

  void Reset();

 private:
  CacheUsage AccountImplicit(const ChatRequest& request, int64_t min_tokens);
  CacheUsage AccountMarked(const ChatRequest& request, int64_t min_tokens);
  bool Seen(uint64_t hash);  // and remembers it

  std::mutex mu_;
  std::unordered_set<uint64_t> seen_;
};

// The smallest prefix (tokens) the provider caches for `model`: the documented minimums of
// providers/prompt_cache.h; 0 (nothing cached) for Ollama.
int64_t CacheMinTokens(Provider provider, std::string_view model);

}  // namespace structure::sim
