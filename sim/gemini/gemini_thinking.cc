#include "sim/gemini/gemini_thinking.h"

#include <cctype>

#include "sim/model_checks.h"
#include "sim/thinking.h"
#include "sim/wire_util.h"

namespace structure::sim {
bool GeminiThinksByDefault(std::string_view model) {
  return FamilyOf(providers::ProviderKind::kGemini, model).thinks_by_default;
}

bool GeminiChecksSignatures(std::string_view model) {
  return FamilyOf(providers::ProviderKind::kGemini, model).replay ==
         providers::ThinkingReplay::kSignaturesChecked;
}

std::string GeminiCallSigned(std::string_view name) { return "functionCall:" + std::string(name); }

Status ParseGeminiThinking(const Json& gc, ChatRequest& out) {
  const Json* tc = gc.find("thinkingConfig");
  if (!tc) tc = gc.find("thinking_config");
  out.thinking_tokens = GeminiThinksByDefault(out.model) ? BudgetTokens(-1) : 0;
  if (!tc || !tc->is_object()) return Status::Ok();
  for (const auto& [key, value] : tc->as_object()) {
    if (key != "thinkingBudget" && key != "thinkingLevel" && key != "includeThoughts" &&
        key != "thinking_budget" && key != "thinking_level" && key != "include_thoughts") {
      return InvalidArgument("Invalid JSON payload received. Unknown name \"" + key +
                             "\" at 'generation_config.thinking_config': Cannot find field.");
    }
  }
  const Json* budget = tc->find("thinkingBudget");
  const Json* level = tc->find("thinkingLevel");
  if (budget && level) {
    return InvalidArgument("You can only set one of thinking budget and thinking level.");
  }
  if (budget && budget->is_integral()) out.thinking_tokens = BudgetTokens(budget->as_int());
  // The level is the API's upper-case enum; CheckGeminiParameters refused anything else.
  if (level && level->is_string()) {
    std::string l = level->as_string();
    for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (l != "thinking_level_unspecified") out.thinking_tokens = EffortTokens(l);
  }
  return Status::Ok();
}

Status CheckGeminiSignatures(const Json& contents) {
  const auto& list = contents.as_array();
  size_t turn = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const Json* parts = list[i].find("parts");
    if (StringAtKey(list[i], "role") == "model" || !parts || !parts->is_array()) continue;
    for (const auto& p : parts->as_array()) {
      if (p.find("text")) turn = i;
    }
  }
  for (size_t i = turn; i < list.size(); ++i) {
    const Json* parts = list[i].find("parts");
    if (StringAtKey(list[i], "role") != "model" || !parts || !parts->is_array()) continue;
    // Of parallel calls only the first carries a signature (Gemini's thought-signatures guide):
    // the first call of each model turn must have one, any other may.
    bool first = true;
    for (const auto& p : parts->as_array()) {
      const Json* fc = p.find("functionCall");
      if (!fc) continue;
      std::string name = StringAtKey(*fc, "name");
      const Json* sig = p.find("thoughtSignature");
      bool required = first;
      first = false;
      if (!sig && !required) continue;
      if (!sig) {
        return InvalidArgument(
            "Function call is missing a thought_signature in functionCall parts. This is "
            "required for tools to work correctly, and missing thought_signature may lead to "
            "degraded model performance. Additional data, function call `default_api:" +
            name + "` , position " + std::to_string(i + 1) +
            ". Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for "
            "more details.");
      }
      if (!sig->is_string() || !ValidSignature(GeminiCallSigned(name), sig->as_string())) {
        return InvalidArgument("Corrupted thought signature.");
      }
    }
  }
  return Status::Ok();
}

}  // namespace structure::sim
