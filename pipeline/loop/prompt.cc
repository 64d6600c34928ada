#include "pipeline/loop/prompt.h"

namespace structure::pipeline {

std::string NeedRule(const PromptParts& parts) {
  std::string s =
      "If - and only if - the input does not contain enough information for a required field, ";
  if (parts.need == providers::NeedChannel::kTool) {
    s += "call the tool \"";
    s += parts.need_tool_name;
    s += "\" with a short description of what is missing";
  } else if (parts.need_envelope) {
    s += "set \"";
    s += parts.envelope_key;
    s += "\" to null and \"_need\" to a short description of what is missing; otherwise put the "
         "answer in \"";
    s += parts.envelope_key;
    s += "\" and set \"_need\" to null";
  } else {
    s += "output {\"_need\": \"<short description of what's missing>\"} and nothing else";
  }
  s += ". Do not invent values to satisfy the schema.";
  return s;
}

std::string BuildSystemPrompt(const PromptParts& parts) {
  std::string s;
  s.reserve(512 + parts.manual.size());
  if (parts.task.empty()) {
    s += "You convert the user's text into one JSON value that conforms to the given JSON "
         "Schema. Use only information found in the text.";
  } else {
    s += parts.task;
  }
  s += "\n\n";
  s += NeedRule(parts);
  s += '\n';
  if (parts.evidence) {
    s += "\nPut the answer in \"answer\". In \"evidence\", list every string, number and boolean "
         "of the answer: \"path\" is its JSON pointer in the answer (\"/items/0/name\"), "
         "\"quote\" the shortest passage of the user's text, copied character for character, "
         "that states it.\n";
  }
  if (parts.final_tool) {
    s += "\nWhen you have the answer, call the tool \"";
    s += parts.final_tool_name;
    s += "\" with it as the arguments. Do not answer in prose.\n";
  }
  bool show_schema = parts.schema_in_prompt && !parts.schema_text.empty();
  if (show_schema && !parts.enforced) {
    s += "\nAnswer with the JSON value only, no prose and no code fence.\n";
  }
  // The fixed instructions, then the manual, then the schema: the same for every call on this
  // schema, so a provider's prompt cache can keep the whole system prompt (the user's text
  // follows in its own turn).
  if (!parts.manual.empty() || !parts.instructions.empty()) {
    s += "\nManual for this schema:\n";
    for (std::string_view block : {parts.manual, parts.instructions}) {
      if (block.empty()) continue;
      s += block;
      if (s.back() != '\n') s += '\n';
    }
  }
  if (show_schema) {
    // A server that enforces the schema without showing it to the model gets it for its
    // descriptions; the fallback path for the shape as well.
    s += parts.enforced
             ? "\nThe answer must follow this JSON Schema; its descriptions say what each field "
               "holds:\n"
             : "\nThe JSON Schema:\n";
    s += parts.schema_text;
    s += '\n';
  }
  return s;
}

std::string_view MissedToolName(MissedTool what) {
  switch (what) {
    case MissedTool::kProse:
      return "prose";
    case MissedTool::kJsonText:
      return "the answer as text";
    case MissedTool::kEmpty:
      return "an empty reply";
    case MissedTool::kCutOff:
      return "a reply cut off before any tool call";
    case MissedTool::kOtherTool:
      return "a call of a tool that is not offered";
  }
  return "prose";
}

std::string FinalToolNudge(const std::string& tool_name, MissedTool what,
                           const std::string& other_tool) {
  const std::string call = "call the tool \"" + tool_name + "\" with the answer as its arguments";
  switch (what) {
    case MissedTool::kProse:
      return "You answered in prose. When you are finished, " + call +
             "; otherwise carry on with the work.";
    case MissedTool::kJsonText:
      return "You wrote the answer as text. Do not write it: " + call + ".";
    case MissedTool::kEmpty:
      return "Your reply was empty. Please " + call + ".";
    case MissedTool::kCutOff:
      return "Your reply was cut off at the output limit before it called a tool. Think less and " +
             call + ".";
    case MissedTool::kOtherTool:
      return "You called \"" + other_tool + "\", which is not a tool here. Please " + call + ".";
  }
  return call;
}

std::string ContinuationText(size_t kept) {
  std::string n = std::to_string(kept);
  std::string received = kept == 1 ? "record 1 is" : "records 1 to " + n + " are";
  return "Your answer was cut off at the output limit after " + n + " complete record" +
         (kept == 1 ? "" : "s") + ": " + received + " received and kept. Answer with record " +
         std::to_string(kept + 1) +
         " and the ones after it, in the same form; do not repeat record " + n +
         " or any record before it.";
}

}  // namespace structure::pipeline
