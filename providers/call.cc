#include "providers/call.h"

#include <algorithm>

#include "providers/call_check.h"

namespace structure::providers {

std::string_view FinishKindName(FinishKind kind) {
  switch (kind) {
    case FinishKind::kStop:
      return "stop";
    case FinishKind::kLength:
      return "length";
    case FinishKind::kRefusal:
      return "refusal";
    case FinishKind::kSafety:
      return "safety";
    case FinishKind::kToolUse:
      return "tool_use";
  }
  return "unknown";
}

int64_t EstimatePromptTokens(const ProviderCall& call) {
  size_t bytes = call.system.size();
  for (const Turn& t : call.turns) {
    bytes += t.text.size();
    for (const ToolCall& c : t.tool_calls) bytes += c.name.size() + c.arguments.size();
    for (const Thought& th : t.thoughts) bytes += th.text.size();
    for (const FilePart& f : t.files) {
      constexpr size_t kImageBytes = 1600 * 4;
      if (f.text) {
        bytes += f.text->size();
      } else {
        bytes += kImageBytes * static_cast<size_t>(std::max(1, f.pages));
      }
    }
  }
  if (!call.schema->is_null()) bytes += call.schema.text().size();
  if (!call.need_schema->is_null()) bytes += call.need_schema.text().size();
  return static_cast<int64_t>(bytes / 4);
}

Status CheckCall(const ProviderCall& call, bool needs_model) {
  if (needs_model && call.model.empty()) return InvalidArgument("provider call: no model given");
  if (call.turns.empty()) return InvalidArgument("provider call: no conversation turns");
  if (call.final_tool && !call.schema->is_object()) {
    return InvalidArgument("provider call: final-tool mode needs an object schema");
  }
  if (call.final_tool && call.final_tool_name.empty()) {
    return InvalidArgument("provider call: final-tool mode needs a tool name");
  }
  if (call.need == NeedChannel::kTool &&
      (!call.need_schema->is_object() || call.need_tool_name.empty())) {
    return InvalidArgument("provider call: the need tool needs a name and an object schema");
  }
  if (call.max_tokens <= 0) return InvalidArgument("provider call: max_tokens must be > 0");
  return Status::Ok();
}

}  // namespace structure::providers
