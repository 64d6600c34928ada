// The per-model context window: providers refuse a request longer than the model's context
// (its prompt and its output cap together) with an error of their own. Past the scenario's
// window for the model, the simulator answers with that error (providers/context_too_long.h),
// the numbers filled in, counting tokens as it does for usage (bytes / 4).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "http/http_message.h"
#include "sim/chat.h"
#include "sim/dialect.h"

namespace structure::sim {

// The tokens a request takes of the context: its prompt estimate and its output cap.
int64_t ContextTokens(const ChatRequest& request);

// The provider's refusal when the request is past the model's window (the model's own entry,
// else "*"), or nullopt. Ollama truncates instead of refusing: never refused.
std::optional<http::HttpResponse> ContextRefusal(const Dialect& dialect, const ChatRequest& request,
                                                 const std::map<std::string, int64_t>& windows);

}  // namespace structure::sim
