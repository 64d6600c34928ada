// Simulated thinking: how many tokens the simulated model thinks for a request, the thinking text
// it returns, and the signatures it puts on thinking and on Gemini parts (checked again when a
// client replays them, as the providers do).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace structure::sim {

// The thinking text of every reply (Anthropic thinking blocks).
inline constexpr const char* kThinkingText =
    "Simulated thinking: reading the text and the schema before answering.";

// Tokens thought at an effort level: minimal 64, low 256, medium (and unknown levels) 1024,
// high 4096, xhigh and max 8192; none 0.
int64_t EffortTokens(std::string_view effort);

// Tokens thought with a budget: min(budget, 1024); a dynamic budget (-1) 1024; 0 none.
int64_t BudgetTokens(int64_t budget);

// Anthropic: whether replies of `model` carry usage.output_tokens_details.thinking_tokens (0 when
// it did not think): the model table's reports_thinking_tokens. Recorded replies show it from
// claude-opus-4-7 on and not from claude-sonnet-4-5 or claude-haiku-4-5
// (tests/data/providers/recorded/anthropic/).
bool ReportsThinkingTokens(std::string_view model);

// A deterministic signature of `what` (base64 text).
std::string Signature(std::string_view what);
bool ValidSignature(std::string_view what, std::string_view signature);

}  // namespace structure::sim
