// The input split decision and the per-part requests of a long input (docs/engine.md "Long
// documents"): pure functions. The request host calls PlanInput before the content stage and,
// when the input does not fit, runs one content loop per part (on the PartSchema plan) and
// combines their results with CombineParts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/input/split.h"
#include "pipeline/result.h"
#include "structure/json.h"
#include "structure/status.h"

namespace structure::pipeline {

struct LoopPlan;
struct LoopSpec;

// Bytes per token the parts are cut by: a cautious reading of text (English runs about 4
// bytes a token; digits, markup and other scripts fewer), so a part estimated to fit does.
inline constexpr int64_t kPartBytesPerToken = 3;

// Where the context window in force comes from.
enum class WindowSource {
  kNone,     // unknown: the input goes whole until a provider refuses it
  kTable,    // the model table (providers/models.h ModelFamily::context_window, or config)
  kLearned,  // learned from a provider's context-length refusal (actors/learned_ceilings.h)
};

struct InputBudget {
  int64_t window = 0;  // tokens of one request, input and output cap together; 0 = unknown
  WindowSource source = WindowSource::kNone;
  int64_t max_input_tokens_per_call = 0;  // Settings: split on purpose past it; 0 = none
  int64_t fixed_tokens = 0;  // the call without the input: instructions, manual, schema
  int64_t output_cap = 0;    // the call's output cap
  double overlap = 0.1;      // of a part, between consecutive parts
};

struct InputPlan {
  std::vector<InputPart> parts;  // empty: the input goes whole
  int64_t input_tokens = 0;      // the whole input's estimate (bytes / 4)
  int64_t part_tokens = 0;       // the most input tokens a part gets
  std::string reason;            // why it was split (the result's modeReason)
};

// The estimated prompt tokens of `spec`'s first call without its input: the instructions, the
// manual and the schema (providers::EstimatePromptTokens).
int64_t FixedTokens(const LoopSpec& spec);

// Decides whether `input` goes whole or in parts. kInvalidArgument (the request host answers
// context_too_long) when the window leaves no room for any input beside the fixed tokens and
// the output cap; the message says which numbers.
Result<InputPlan> PlanInput(std::string_view input, const InputBudget& budget);

// What `structure run --dry-run` prints: {"window", "windowSource" ("none", "table",
// "learned"), "maxInputTokensPerCall", "fixedTokens", "outputCap", "inputTokens", "partTokens",
// "calls" (the provider calls when every answer is accepted at once), "parts": [{"part",
// "byteStart", "byteEnd", "tokens"}] (empty: whole), "reason"}.
Json InputPlanToJson(const InputPlan& plan, const InputBudget& budget);

// The user turn of part `index` (0-based) of `count`: a line that says where the part sits
// ("[Part 3 of 11 of one document. ...]") and the part's text. The instructions and the schema
// stay those of a whole call, so every part shares the prompt-cache prefix.
std::string PartPrompt(std::string_view part_text, size_t index, size_t count);
// The bytes before the part's text in PartPrompt (every one is ASCII: as many code points).
size_t PartHeaderBytes(size_t index, size_t count);

// The schema a part is asked with: what a part may lack is optional. Every `required`,
// `minItems`, `minProperties`, `minContains` and `dependentRequired` is dropped, in every
// subschema; the merged answer is validated against the ORIGINAL schema.
Json PartSchema(const Json& schema);

// A part's evidence ({pointer: {"byteStart", "byteEnd", "cpStart", "cpEnd", ...}}, offsets in
// its PartPrompt) with offsets in the whole document; a quote outside the part's text is left
// out. `cp_begin`: the code points of the document before the part.
Json WholeDocumentEvidence(const Json& evidence, const InputPart& part, size_t cp_begin,
                           size_t header_bytes);

// Code points in `text` (UTF-8).
size_t CodePoints(std::string_view text);

// One result from the parts' results (in document order): usage and iterations summed; the
// first error ends it (its message names the part); the answers merged (pipeline/input/merge.h)
// and validated against `plan`'s ORIGINAL schema: ok with `conflicts`, or need-more-input with
// the parts' need texts joined when the merged answer lacks what the schema requires and a
// part said what is missing, else stale with the validator's messages.
// Evidence offsets are mapped to the whole document `doc`.
CallResult CombineParts(std::vector<CallResult> parts, const std::vector<InputPart>& layout,
                        std::string_view doc, const LoopPlan& plan, std::string reason);

}  // namespace structure::pipeline
