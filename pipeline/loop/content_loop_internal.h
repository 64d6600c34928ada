// Internals of the content loop (pipeline/loop/content_loop.h) shared by its .cc files: how the
// loop ends and the limits that end it (content_loop_finish.cc), and the calls it sends
// (content_loop_calls.cc). content_loop.cc judges the replies and drives the steps.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/json.h"
#include "pipeline/loop/content_loop.h"
#include "providers/call.h"

namespace structure::pipeline::detail {

// The loop ends: with an error, with need-more-input, or with `data` accepted. The result takes
// the state's iterations, usage, re-asks and trace.
Finish Error(const LoopSpec& spec, LoopState& state, ErrorCode code, std::string message);
Finish Need(const LoopSpec& spec, LoopState& state, std::string need);
Finish Accept(const LoopSpec& spec, LoopState& state, Json data);

// Tokens the loop has used: input and output (thinking included) over every call.
int64_t Used(const LoopState& state);

// Stale when the loop is out of iterations; nullopt when it may ask again (the token budget is
// checked with the call itself, SendNext).
std::optional<Finish> OutOfLoops(const LoopSpec& spec, LoopState& state);

// The loop may send another call: it has rounds left, and tokens for a call like the last one.
bool MayReask(const LoopSpec& spec, const LoopState& state);

// The token budget does not allow `call`: an error before any answer, else stale with the last
// answer's errors; the result says the budget ended it.
Finish OverBudget(const LoopSpec& spec, LoopState& state, int64_t prompt, int64_t cap);

// Sends the conversation as the next call, unless the call (its prompt estimate plus its
// output cap) would take the loop over its token budget.
Step SendNext(const LoopSpec& spec, LoopState& state);

// The assistant turn that replays a reply: its text and the reasoning that came with it, which
// Anthropic and Gemini require back unchanged with a tool call.
providers::Turn AssistantTurn(const providers::ProviderReply& reply);

// Asks again with the minimal context: the user's text, the previous answer, then `text` (as
// the answer tool's result when the answer came in a tool call, an error unless `ok`). Earlier
// rounds are not resent (they only grow the bill).
Step AskAgain(const LoopSpec& spec, LoopState& state, const providers::ProviderReply& reply,
              const providers::ToolCall* answer_call, std::string text, bool ok, ReaskReasons why);

// Re-asks: the previous answer and why it was rejected.
Step Reask(const LoopSpec& spec, LoopState& state, const providers::ProviderReply& reply,
           const providers::ToolCall* answer_call, std::string reason,
           std::vector<std::string> errors, ReaskReasons why);

// Final-tool mode, every final call rejected: the whole reply goes back with one result per
// tool call (its rejection, or "not run").
Step ReaskTools(const LoopSpec& spec, LoopState& state);

}  // namespace structure::pipeline::detail
