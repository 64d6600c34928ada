// Reading an OpenAI-style chat completion (a 2xx body) into the parts a ProviderReply is made
// of: from a Json tree (any shape providers send) or, for the usual shape, straight from the
// text without building a tree (ReadUsualChatReply: the hot path of every call). Internal to
// providers/ (openai_chat.cc finishes both into a ProviderReply the same way).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/json.h"
#include "providers/call.h"

namespace structure::providers {

// The members of `usage` a Usage is made of, each read as IntAt reads it (0 when absent or not
// a number).
struct ChatUsageFields {
  int64_t prompt = 0;                // prompt_tokens
  int64_t completion = 0;            // completion_tokens
  int64_t total = 0;                 // total_tokens
  int64_t num_cached = 0;            // num_cached_tokens (Mistral)
  std::optional<int64_t> cached;     // prompt_tokens_details.cached_tokens, when present
  int64_t cache_write = 0;           // prompt_tokens_details.cache_write_tokens (OpenRouter)
  std::optional<int64_t> reasoning;  // completion_tokens_details.reasoning_tokens, when present
};

// What a chat completion says, before the finish reason and usage are interpreted.
struct ChatReplyParts {
  ProviderReply reply;                   // model, content, refusal, thoughts, tool calls
  std::string finish;                    // choices[0].finish_reason ("" when absent)
  std::optional<ChatUsageFields> usage;  // when `usage` is an object
};

// Fills `out` from the usage fields; true when they report the reasoning tokens.
bool UsageFromFields(const ChatUsageFields& fields, Usage& out);

// The parts of `root` (a JSON object) as the tree gives them: choices[0] must be an object
// (else nullopt); an "error" object is the caller's to check first.
std::optional<ChatReplyParts> ChatPartsFromTree(const Json& root);

// The parts of a usual chat completion read straight from its text: an object with a first
// choice whose message content is a string or null, tool calls with text arguments, integer
// token counts and no "error" member. nullopt for anything else (an unusual shape, a repeated
// member, text ParseJson refuses): the caller then parses the tree, which decides.
std::optional<ChatReplyParts> ReadUsualChatReply(std::string_view body);

}  // namespace structure::providers
