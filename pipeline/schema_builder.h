// The schema builder (text mode): a plain-language description becomes a JSON Schema through an
// LLM call whose output is forced to a meta-schema — a practical subset of 2020-12 — plus
// `confidence` and `clarifyingQuestions`. The call itself runs as a content loop
// (BuilderLoopSpec); this file holds the meta-schema, the prompt and the decisions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "pipeline/loop/content_loop.h"
#include "pipeline/request.h"
#include "pipeline/schema_stage.h"
#include "structure/status.h"

namespace structure::pipeline {

// The builder's output shape:
//   {"schema": <node>, "confidence": 0..1, "clarifyingQuestions": [string]}
// where <node> allows type (object/array/string/number/integer/boolean), description, title,
// enum, pattern, format, minimum/maximum, minLength/maxLength, minItems/maxItems, items,
// properties, required, additionalProperties (false). Recursive through $defs.
const Json& BuilderMetaSchema();

std::string BuilderSystemPrompt();

// White space collapsed to single spaces and trimmed: two descriptions that differ only in
// spacing share a cache entry.
std::string NormalizeDescription(std::string_view text);

// A stable hex key for the normalized text (cache key; the cache also stores the text itself
// and compares it, so a hash collision can never return another description's schema).
std::string DescriptionKey(std::string_view normalized);

// The builder call's prompt (the user turn) for a description.
std::string BuilderPrompt(const std::string& description);

// The builder call as an ordinary structure request: the description is the prompt and the
// meta-schema the schema, so it is lowered and need-checked like any content call.
StructureRequest BuilderRequest(const std::string& description);

// The compiled meta-schema (origin "builder").
const ResolvedSchema& BuilderSchema();

// Adapts a plan for the builder schema (MakeLoopPlan on BuilderSchema()) to the builder: its
// task prompt.
void ConfigureBuilderPlan(LoopPlan& plan);

// Adapts a content loop spec (from MakeContentSpec on BuilderRequest) to the builder: at most
// 2 attempts, the builder's task prompt (ConfigureBuilderPlan, on a copy of the plan unless it
// has a task already), and a semantic check that compiles the produced schema so an invalid
// pattern is a reason for the next attempt, not a crash.
void ConfigureBuilderLoop(LoopSpec& spec);

struct BuilderDecision {
  Outcome status = Outcome::kError;  // kOk (schema ready), kNeedMoreInput, kStale, kError
  Json schema;                       // the inferred schema, iff kOk
  std::string need;                  // the clarifying question(s), iff kNeedMoreInput
  double confidence = 0;
};

// Turns the builder loop's result into the schema stage's decision: below `threshold` or with
// clarifying questions -> need-more-input with the question as the need text; a `_need` answer
// passes through as need-more-input; stale and error pass through.
BuilderDecision DecideBuilderResult(const StructureResult& loop_result, double threshold);

}  // namespace structure::pipeline
