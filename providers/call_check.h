// Checks shared by every BuildRequest: a call must name a model, hold a turn, and carry the
// schemas its modes need. Internal to providers/.
#pragma once

#include "providers/call.h"
#include "structure/status.h"

namespace structure::providers {

// kInvalidArgument naming the first missing piece.
Status CheckCall(const ProviderCall& call, bool needs_model = true);

}  // namespace structure::providers
