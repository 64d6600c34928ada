#include "pipeline/prompt.h"

namespace structure::pipeline {

std::string NeedRule(const PromptParts& parts) {
  std::string form;
  if (parts.need == providers::NeedChannel::kTool) {
    form = "call the tool \"" + parts.need_tool_name +
           "\" with a short description of what is missing";
  } else {
    form = "output {\"_need\": \"<short description of what's missing>\"} and nothing else";
  }
  return "If - and only if - the input does not contain enough information for a required "
         "field, " + form + ". Do not invent values to satisfy the schema.";
}

std::string BuildSystemPrompt(const PromptParts& parts) {
  std::string s = parts.task.empty()
                      ? "You convert the user's text into one JSON value that conforms to the "
                        "given JSON Schema. Use only information found in the text."
                      : parts.task;
  s += "\n\n";
  s += NeedRule(parts) + "\n";
  if (parts.final_tool) {
    s += "\nWhen you have the answer, call the tool \"" + parts.final_tool_name +
         "\" with it as the arguments. Do not answer in prose.\n";
  }
  if (parts.schema_in_prompt) {
    s += "\nAnswer with the JSON value only, no prose and no code fence. The JSON Schema:\n";
    s += ToJson(parts.schema) + "\n";
  }
  if (!parts.manual.empty()) {
    s += "\nManual for this schema:\n";
    s += parts.manual;
    if (s.back() != '\n') s += '\n';
  }
  return s;
}

std::string FinalToolNudge(const std::string& tool_name) {
  return "You answered in prose. When you are finished, call the tool \"" + tool_name +
         "\" with the answer as its arguments; otherwise carry on with the work.";
}

}  // namespace structure::pipeline
