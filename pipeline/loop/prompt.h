// The content stage's system prompt: the task, the need rule (never invent values), the
// schema's manual, and the schema itself as text where the model would not see it otherwise. It
// holds nothing of the request, so it is the stable prefix a provider's prompt cache keeps
// (docs/providers.md).
#pragma once

#include <string>
#include <string_view>

#include "base/json.h"
#include "providers/call.h"

namespace structure::pipeline {

// Views of the parts (they must outlive the BuildSystemPrompt call): nothing is copied.
struct PromptParts {
  std::string_view task;          // replaces the default first paragraph when set
  std::string_view manual;        // registry manual (markdown), may be empty
  std::string_view instructions;  // the caller's own (system messages), after the manual
  bool schema_in_prompt = false;  // the schema is shown (the model does not see it otherwise)
  bool enforced = false;          // ... and the provider enforces it (else: the fallback path)
  std::string_view schema_text;   // the schema to show when schema_in_prompt (compact JSON)
  providers::NeedChannel need = providers::NeedChannel::kNone;
  bool need_envelope = false;                // kEnvelope as {"result", "_need"}
  std::string_view envelope_key = "result";  // the envelope's answer member
  std::string_view need_tool_name = "need_more_input";
  bool final_tool = false;
  std::string_view final_tool_name = "submit";
  bool evidence = false;  // the form is {"answer", "evidence"} (pipeline/evidence/form.h)
};

// The need rule sentence as sent, in the form the provider was given: for the JSON form "If - and
// only if - the input does not contain enough information for a required field, output
// {"_need": "<short description of what's missing>"} and nothing else. Do not invent values to
// satisfy the schema."; for the envelope "set "result" to null and "_need" to ..."; for a need
// tool "call the tool "need_more_input" with ...".
std::string NeedRule(const PromptParts& parts);

// In this order: the fixed instructions (task, need rule, final tool, answer form), the
// manual, the schema (fallback path, or a server that does not show it to the model). The
// user's text is never part of it.
std::string BuildSystemPrompt(const PromptParts& parts);

// What a final-tool reply did instead of calling the final tool.
enum class MissedTool {
  kProse,      // text that is no answer
  kJsonText,   // the answer written as text (a JSON object or array)
  kEmpty,      // nothing at all
  kCutOff,     // cut off at the output cap before any tool call
  kOtherTool,  // a call of a tool that is not offered
};

// How the nudge and the error name `what`: "prose", "the answer as text", "an empty reply", ...
std::string_view MissedToolName(MissedTool what);

// The nudge sent after such a reply: it says what happened and asks for the tool `tool_name`
// (`other_tool` names the tool called for kOtherTool).
std::string FinalToolNudge(const std::string& tool_name, MissedTool what,
                           const std::string& other_tool = {});

// Array mode, after an answer cut off at the output cap: says how many complete records were
// received (records 1 to `kept`) and asks for record kept + 1 onward, in the same form, without
// repeating any.
std::string ContinuationText(size_t kept);

}  // namespace structure::pipeline
