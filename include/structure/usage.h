// Usage: the tokens a request cost, summed over every provider call it made.
#pragma once

#include <cstdint>

namespace structure {

// Token counts as the providers report them; 0 where a provider reports none.
struct Usage {
  int64_t input_tokens = 0;         // every prompt token, the cached ones included
  int64_t output_tokens = 0;        // every generated token, the thinking included
  int64_t cached_input_tokens = 0;  // prompt tokens read from the provider's cache
  int64_t cache_write_tokens = 0;   // prompt tokens written to it (Anthropic cache creation)
  int64_t reasoning_tokens = 0;     // the part of output_tokens spent thinking, when reported
  // The model returned thinking but the provider reported no count of it (some Anthropic models,
  // Ollama, OpenAI-compatible servers that send reasoning text only): reasoning_tokens is then a
  // lower bound, and the thinking is in output_tokens.
  bool reasoning_unreported = false;
};

// Adds every count of `b` to `a`.
inline Usage& operator+=(Usage& a, const Usage& b) {
  a.input_tokens += b.input_tokens;
  a.output_tokens += b.output_tokens;
  a.cached_input_tokens += b.cached_input_tokens;
  a.cache_write_tokens += b.cache_write_tokens;
  a.reasoning_tokens += b.reasoning_tokens;
  a.reasoning_unreported = a.reasoning_unreported || b.reasoning_unreported;
  return a;
}

}  // namespace structure
