#include "sim/model_checks.h"

#include <algorithm>
#include <cctype>

#include "sim/wire_util.h"

namespace structure::sim {
namespace {

using providers::ModelFamily;
using providers::ProviderKind;

ParamRejection Reject(std::string message, std::string param = {}, std::string code = {},
                      int status = 400) {
  return ParamRejection{status, std::move(message), std::move(param), std::move(code)};
}

bool Takes(const std::vector<std::string>& levels, std::string_view level) {
  return std::find(levels.begin(), levels.end(), level) != levels.end();
}

bool Thinks(const ModelFamily& f) { return !f.efforts.empty() || f.budget_max > 0 || f.on_off; }

// "'none', 'low', 'medium', and 'high'", as OpenAI lists supported values.
std::string OpenAiList(const std::vector<std::string>& levels) {
  std::string out;
  for (size_t i = 0; i < levels.size(); ++i) {
    if (i > 0) out += levels.size() > 2 ? ", " : " ";
    if (i > 0 && i + 1 == levels.size()) out += "and ";
    out += "'" + levels[i] + "'";
  }
  return out;
}

// "'low', 'medium' or 'high'", as Anthropic's validation messages list them.
std::string AnthropicList(const std::vector<std::string>& levels) {
  std::string out;
  for (size_t i = 0; i < levels.size(); ++i) {
    if (i > 0) out += i + 1 == levels.size() ? " or " : ", ";
    out += "'" + levels[i] + "'";
  }
  return out;
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A sampling parameter the family takes only at its default (1).
std::optional<ParamRejection> DefaultOnly(const Json& body, const char* name) {
  const Json* v = body.find(name);
  if (!v || !v->is_number() || v->as_double() == 1.0) return std::nullopt;
  return Reject("Unsupported value: '" + std::string(name) + "' does not support " + ToJson(*v) +
                    " with this model. Only the default (1) value is supported.",
                name, "unsupported_value");
}

// OpenRouter with provider.require_parameters routes only to endpoints that take every
// parameter; when the upstream family takes one of them, none is left.
std::optional<ParamRejection> CheckOpenRouter(const Json& body, const ModelFamily& f) {
  const Json* provider = body.find("provider");
  const Json* require =
      provider && provider->is_object() ? provider->find("require_parameters") : nullptr;
  if (!require || !require->is_bool() || !require->as_bool()) return std::nullopt;
  bool refused = (body.find("parallel_tool_calls") && !f.parallel_tool_calls) ||
                 (DefaultOnly(body, "temperature") && !f.temperature) ||
                 (DefaultOnly(body, "top_p") && !f.top_p);
  if (!refused) return std::nullopt;
  return Reject(
      "No endpoints found that can handle the requested parameters. To learn more about provider "
      "routing, visit: https://openrouter.ai/docs/provider-routing",
      "", "", 404);
}

}  // namespace

ModelFamily FamilyOf(ProviderKind kind, std::string_view model) {
  return providers::ModelTable::Builtin()->Find(kind, model);
}

std::optional<ParamRejection> CheckOpenAiParameters(const Json& body, std::string_view model) {
  if (model.find('/') != std::string_view::npos) {
    return CheckOpenRouter(body, FamilyOf(ProviderKind::kOpenRouter, model));
  }
  ModelFamily f = FamilyOf(ProviderKind::kOpenAi, model);
  if (body.find("parallel_tool_calls") && !f.parallel_tool_calls) {
    return Reject("Unsupported parameter: 'parallel_tool_calls' is not supported with this model.",
                  "parallel_tool_calls", "unsupported_parameter");
  }
  // Reasoning models take sampling parameters only at their default, and the cap only as
  // max_completion_tokens.
  if (!f.temperature) {
    if (auto r = DefaultOnly(body, "temperature")) return r;
  }
  if (!f.top_p) {
    if (auto r = DefaultOnly(body, "top_p")) return r;
  }
  if (const Json* m = body.find("max_tokens"); m && !m->is_null() && !f.temperature) {
    return Reject(
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
        "'max_completion_tokens' instead.",
        "max_tokens", "unsupported_parameter");
  }
  const Json* effort = body.find("reasoning_effort");
  // The families whose calls go to the Responses API take function tools on chat completions
  // only without reasoning: asked for (any level but none), or on by default.
  const Json* tools = body.find("tools");
  bool reasons =
      effort && effort->is_string() ? effort->as_string() != "none" : f.thinks_by_default;
  if (f.api == providers::OpenAiApi::kResponses && tools && tools->is_array() &&
      tools->size() > 0 && reasons) {
    return Reject("Function tools with reasoning_effort are not supported for " +
                      std::string(model) +
                      " in /v1/chat/completions. Please use /v1/responses instead.",
                  "reasoning_effort");
  }
  if (!effort || !effort->is_string() || Takes(f.efforts, effort->as_string())) {
    return std::nullopt;
  }
  if (f.efforts.empty()) {
    return Reject("Unsupported parameter: 'reasoning_effort' is not supported with this model.",
                  "reasoning_effort", "unsupported_parameter");
  }
  return Reject("Unsupported value: '" + effort->as_string() + "' is not supported with the '" +
                    std::string(model) + "' model. Supported values are: " + OpenAiList(f.efforts) +
                    ".",
                "reasoning_effort", "unsupported_value");
}

std::optional<ParamRejection> CheckAnthropicParameters(const Json& body, std::string_view model) {
  ModelFamily f = FamilyOf(ProviderKind::kAnthropic, model);
  if (const Json* m = body.find("max_tokens");
      m && m->is_integral() && f.output_cap > 0 && m->as_int() > f.output_cap) {
    return Reject(
        "max_tokens: " + std::to_string(m->as_int()) + " > " + std::to_string(f.output_cap) +
        ", which is the maximum allowed number of output tokens for " + std::string(model));
  }
  const Json* th = body.find("thinking");
  std::string type = th && th->is_object() ? StringAtKey(*th, "type") : "";
  if (type == "adaptive" && f.efforts.empty()) {
    return Reject("adaptive thinking is not supported on this model");
  }
  if (type == "enabled" && !Thinks(f)) {
    return Reject("thinking is not supported on this model");
  }
  if (type == "enabled" && f.budget_max == 0) {
    return Reject(
        "\"thinking.type.enabled\" is not supported for this model. Use "
        "\"thinking.type.adaptive\" and \"output_config.effort\" to control thinking behavior.");
  }
  if (type == "disabled" && f.thinking_off && f.off_by_omission) {
    return Reject(
        "\"thinking.type.disabled\" is not supported for this model. Omit \"thinking\" to turn "
        "thinking off, or use \"thinking.type.adaptive\" and \"output_config.effort\".");
  }
  if (type == "disabled" && !f.thinking_off) {
    return Reject(
        "\"thinking.type.disabled\" is not supported for this model: it always thinks. Use "
        "\"output_config.effort\" to control thinking behavior.");
  }
  const Json* oc = body.find("output_config");
  if (!f.structured_outputs) {
    // A 400 for structured outputs on a model that has none (no public report quotes
    // Anthropic's wording: the simulator's own).
    if (oc && oc->is_object() && oc->find("format")) {
      return Reject("'" + std::string(model) + "' does not support output format.");
    }
    if (const Json* tools = body.find("tools"); tools && tools->is_array()) {
      for (const Json& t : tools->as_array()) {
        const Json* strict = t.is_object() ? t.find("strict") : nullptr;
        if (strict && strict->is_bool() && strict->as_bool()) {
          return Reject("'" + std::string(model) + "' does not support strict tools.");
        }
      }
    }
  }
  std::string effort = oc && oc->is_object() ? StringAtKey(*oc, "effort") : "";
  if (!effort.empty() && f.efforts.empty()) {
    return Reject("output_config.effort: This model does not support the effort parameter.");
  }
  if (!effort.empty() && !Takes(f.efforts, effort)) {
    return Reject("output_config.effort: Input should be " + AnthropicList(f.efforts));
  }
  return std::nullopt;
}

std::optional<ParamRejection> CheckOllamaParameters(const Json& body, std::string_view model) {
  const Json* think = body.find("think");
  if (!think || think->is_null()) return std::nullopt;
  ModelFamily f = FamilyOf(ProviderKind::kOllama, model);
  bool asks = (think->is_bool() && think->as_bool()) || think->is_string();
  if (asks && !Thinks(f)) {
    return Reject("\"" + std::string(model) + "\" does not support thinking");
  }
  if (think->is_string() && !Takes(f.efforts, think->as_string())) {
    return Reject("think value \"" + think->as_string() + "\" is not supported for this model");
  }
  return std::nullopt;
}

std::optional<ParamRejection> CheckGeminiParameters(const Json& gc, std::string_view model) {
  const Json* tc = gc.find("thinkingConfig");
  if (!tc) tc = gc.find("thinking_config");
  if (!tc || !tc->is_object()) return std::nullopt;
  if (model.substr(0, 7) == "models/") model.remove_prefix(7);
  ModelFamily f = FamilyOf(ProviderKind::kGemini, model);
  const Json* level = tc->find("thinkingLevel");
  if (!level) level = tc->find("thinking_level");
  const Json* budget = tc->find("thinkingBudget");
  if (!budget) budget = tc->find("thinking_budget");
  bool asks = (level && level->is_string()) || (budget && budget->is_integral());
  if (asks && !Thinks(f)) return Reject("thinking_config is not supported.");
  if (level && level->is_string() && level->as_string() != "THINKING_LEVEL_UNSPECIFIED") {
    const std::string& l = level->as_string();
    std::string lower = Lower(l);
    if (l != Upper(l) || !Takes(providers::ThinkingLevels(), lower)) {
      return Reject(
          "Invalid value at 'generation_config.thinking_config.thinking_level' "
          "(type.googleapis.com/google.ai.generativelanguage.v1beta.ThinkingConfig.ThinkingLevel), "
          "\"" +
          l + "\"");
    }
    if (f.efforts.empty()) return Reject("Thinking level is not supported for this model.");
    if (!Takes(f.efforts, lower)) {
      return Reject("Unable to submit request because thinking_level " + l +
                    " is not supported by this model.");
    }
  }
  if (budget && budget->is_integral()) {
    int64_t b = budget->as_int();
    if (b == 0 && !f.thinking_off) {
      return Reject("The model does not support setting thinking_budget to 0.");
    }
    bool in_range = b == 0 || (b == -1 && f.dynamic_budget) ||
                    (f.budget_max > 0 && b >= f.budget_min && b <= f.budget_max) ||
                    (f.budget_max == 0 && b > 0);  // Gemini 3 still takes a budget
    if (!in_range) return Reject("The thinking budget (" + std::to_string(b) + ") is invalid.");
  }
  return std::nullopt;
}

}  // namespace structure::sim
