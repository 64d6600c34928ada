// Gemini's thinking as the simulator serves it: thinkingConfig (a budget or a level), the models
// that think by default, and the thought signatures Gemini 3 checks on replayed function calls.
#pragma once

#include <string>
#include <string_view>

#include "base/json.h"
#include "sim/chat.h"
#include "structure/status.h"

namespace structure::sim {

// Gemini 2.5 and later think when nothing is said; Gemini 3 checks replayed signatures.
bool GeminiThinksByDefault(std::string_view model);
bool GeminiChecksSignatures(std::string_view model);

// What a function call's signature signs (the simulator ties it to the call's name).
std::string GeminiCallSigned(std::string_view name);

// Reads generationConfig.thinkingConfig into out.thinking_tokens (the model's default when
// absent); kInvalidArgument with Gemini's message for unknown fields, a budget and a level
// together, or an unknown level.
Status ParseGeminiThinking(const Json& generation_config, ChatRequest& out);

// kInvalidArgument, as Gemini 3 answers, when a function call of the current turn (the model
// turns after the last user text) comes back without the signature it was sent with.
Status CheckGeminiSignatures(const Json& contents);

}  // namespace structure::sim
