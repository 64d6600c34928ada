// What the simulated providers refuse per model family, driven by the engine's model table
// (providers/models.h): a request that carries a parameter the requested model does not take
// gets the provider's 400 (OpenRouter: its 404 for require_parameters), with the provider's
// wording where a public report or page quotes it. Pure.
#pragma once

#include <optional>
#include <string_view>

#include "base/json.h"
#include "providers/models.h"
#include "sim/chat.h"

namespace structure::sim {

// The family of `model` at a provider of `kind` in the built-in table.
providers::ModelFamily FamilyOf(providers::ProviderKind kind, std::string_view model);

// OpenAI chat completions (OpenRouter for a "vendor/model" name): parallel_tool_calls,
// temperature and top_p where the family takes none, max_tokens on a reasoning model, a
// reasoning_effort level the family does not take, function tools with reasoning on a family
// whose API is the Responses API (OpenAI's 400 "Function tools with reasoning_effort are not
// supported for gpt-5.4 in /v1/chat/completions. Please use /v1/responses instead").
std::optional<ParamRejection> CheckOpenAiParameters(const Json& body, std::string_view model);

// Anthropic messages: adaptive thinking or output_config.effort on a model without them,
// budget_tokens on an adaptive-only model or outside its range, an effort level it does not
// take, thinking turned off on a model that always thinks or that is turned off by leaving it
// out (Opus 4.7), output_config.format or a strict tool on a model without structured outputs.
std::optional<ParamRejection> CheckAnthropicParameters(const Json& body, std::string_view model);

// Ollama /api/chat: `think` true or a level on a model without thinking ("\"<model>\" does not
// support thinking"), a level on a model that takes only true or false.
std::optional<ParamRejection> CheckOllamaParameters(const Json& body, std::string_view model);

// Gemini generateContent (generationConfig): a thinkingConfig on a model that does not think,
// thinkingLevel on 2.5, a level not in the API's upper-case enum or not taken by the model
// (MINIMAL on 3 Pro), thinkingBudget 0 where thinking cannot be turned off, a budget outside
// the model's range.
std::optional<ParamRejection> CheckGeminiParameters(const Json& generation_config,
                                                    std::string_view model);

}  // namespace structure::sim
