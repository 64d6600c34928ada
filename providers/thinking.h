// Thinking per provider: which models think unless told otherwise, and the default output cap
// that leaves room for the answer beyond the thinking (thinking tokens count against the cap on
// every provider). docs/providers.md has the table.
#pragma once

#include <cstdint>
#include <string_view>

#include "providers/call.h"
#include "providers/endpoint.h"

namespace structure::providers {

// True for models that think when nothing is said: OpenAI o-series and gpt-5 models, Gemini 2.5
// and later ("gemini-2.5-…", "gemini-3…"), by name.
bool ThinksByDefault(ProviderKind kind, std::string_view model);

// Tokens set aside for thinking at an effort level: none 0, minimal 1024, low 4096, medium (and
// an empty level) 8192, high 16384, xhigh and max 32768.
int64_t ThinkingAllowance(std::string_view effort);

// The output cap of a call: `configured` when > 0; else `answer_cap` plus room for thinking: the
// budget when one is set (a dynamic Gemini budget, -1, gets the medium allowance), the
// allowance of the effort level, the medium allowance for a model that thinks by default, and
// nothing otherwise.
int64_t OutputCap(ProviderKind kind, std::string_view model, const Thinking& thinking,
                  int64_t answer_cap, int64_t configured);

}  // namespace structure::providers
