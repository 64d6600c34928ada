// Turns a scripted reply or the generative mode into an Answer for one request: picks the
// output channel (content JSON or a tool call), applies content faults (constraint violations,
// need answers, prose, fences, malformed or truncated JSON, refusals) and max_tokens cuts.
#pragma once

#include <string>

#include "sim/chat.h"
#include "sim/rng.h"
#include "sim/scenario.h"

namespace structure::sim {

// The answer a scripted reply describes for this request.
Answer ScriptedAnswer(const ScriptedReply& reply, const ChatRequest& request, Rng& rng);

// A generative answer: a schema-valid object for the request's schema (or tool), with at most
// one content fault drawn from `faults`. `forced_fault` ("invalid", "need", ...) skips the dice.
Answer GeneratedAnswer(const ChatRequest& request, const ContentFaults& faults, Rng& rng,
                       const std::string& forced_fault = "");

// Spends request.thinking_tokens thinking, then cuts the answer to what is left of
// request.max_tokens (by the bytes/4 estimate), marking it truncated. Thinking that uses the
// whole cap leaves no answer at all (empty text, no tool call).
void ApplyMaxTokens(const ChatRequest& request, Answer& answer);

// Completion tokens of an answer (text or tool arguments, and the thinking).
int64_t AnswerTokens(const Answer& answer);

}  // namespace structure::sim
