// The per-model grammar budget: providers compile a request's strict schemas into one
// grammar and refuse it past a size they do not publish ("compiled grammar is too large",
// "too many states for serving"), which depends on the model. The simulator measures that
// size the way the engine does (pipeline/lowering/measure.h) and, past the scenario's budget
// for the model, answers with the provider's own error (providers/schema_too_large.h).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "http/http_message.h"
#include "sim/chat.h"
#include "sim/dialect.h"

namespace structure::sim {

// The grammar size of a request's strict schemas (summed: one grammar per request).
size_t RequestGrammar(const std::vector<CheckedSchema>& checks);

// The provider's refusal when the request's grammar is past the model's budget (the model's
// own entry, else "*"), or nullopt.
std::optional<http::HttpResponse> GrammarRefusal(const Dialect& dialect, const ChatRequest& request,
                                                 const std::vector<CheckedSchema>& checks,
                                                 const std::map<std::string, size_t>& budgets);

}  // namespace structure::sim
