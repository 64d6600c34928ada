// Thinking and the output cap: thinking tokens count against the cap on every provider, so a
// call's default cap leaves room for the answer beyond the thinking its model family does.
// docs/providers.md has the table.
#pragma once

#include <cstdint>
#include <string_view>

#include "providers/call.h"
#include "providers/models.h"

namespace structure::providers {

// Tokens set aside for thinking at an effort level: none 0, minimal 1024, low 4096, medium (and
// an empty level) 8192, high 16384, xhigh and max 32768.
int64_t ThinkingAllowance(std::string_view effort);

// The output cap of a call to `model` of `family`: `configured` when > 0; else `answer_cap` plus
// room for thinking as the family will be asked (ResolveThinking): the budget (a dynamic one,
// -1, gets the medium allowance), the allowance of the level, the medium allowance for "on" or
// for a family that thinks by default when nothing is asked, nothing when thinking is off. At
// most the family's output cap when it has one.
int64_t OutputCap(const ModelFamily& family, std::string_view model, const Thinking& thinking,
                  int64_t answer_cap, int64_t configured);

}  // namespace structure::providers
