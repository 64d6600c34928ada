// The request (structure/request.h) inside the pipeline, and the check of an inline schema that
// the request parser and the batch command's --schema share.
#pragma once

#include "structure/json.h"
#include "structure/request.h"
#include "structure/status.h"

namespace structure::pipeline {

using structure::CallParams;
using structure::ConversationTurn;
using structure::ParseRequest;
using structure::Priority;
using structure::RequestLimits;
using structure::SchemaMode;
using structure::SchemaModeName;
using structure::StructureRequest;
using structure::TurnRole;

// Checks an inline schema: an object or a boolean within the limits. kInvalidArgument
// "schema: ..." otherwise. A max_schema_bytes of SIZE_MAX skips measuring the size (for a
// caller that has measured it).
Status CheckInlineSchema(const Json& schema, const RequestLimits& limits = {});

}  // namespace structure::pipeline
