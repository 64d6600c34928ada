#include "providers/models.h"

#include <algorithm>

#include "providers/kinds.h"
#include "providers/thinking.h"

namespace structure::providers {
namespace {

bool Contains(const std::vector<std::string>& list, std::string_view x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

std::string JoinOr(const std::vector<std::string>& list) {
  std::string out;
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out += i + 1 == list.size() ? " or " : ", ";
    out += list[i];
  }
  return out;
}

bool Thinks(const ModelFamily& f) { return !f.efforts.empty() || f.budget_max > 0 || f.on_off; }

std::string BudgetRange(const ModelFamily& f) {
  return std::to_string(f.budget_min) + ".." + std::to_string(f.budget_max) +
         (f.dynamic_budget ? " or -1 (dynamic)" : "");
}

// What a family takes, for messages: "reasoning_effort low, medium or high".
std::string Takes(const ModelFamily& f) {
  std::vector<std::string> parts;
  if (!f.efforts.empty()) parts.push_back("reasoning_effort " + JoinOr(f.efforts));
  if (f.on_off) parts.push_back("thinking on or off");
  if (f.budget_max > 0) parts.push_back("thinking_budget " + BudgetRange(f));
  if (parts.empty()) return "no thinking parameter (it does not think)";
  return JoinOr(parts);
}

Status Bad(std::string_view model, const ModelFamily& f, const std::string& asked) {
  return InvalidArgument(std::string(model) + " takes " + Takes(f) + ", not " + asked);
}

WireThinking Form(WireThinking::Form form, std::string level = {}, int64_t budget = 0) {
  WireThinking w;
  w.form = form;
  w.level = std::move(level);
  w.budget = budget;
  return w;
}

Result<WireThinking> TurnOff(const ModelFamily& f, std::string_view model,
                             const std::string& asked) {
  if (!Thinks(f)) return Form(WireThinking::Form::kUnset);  // nothing to turn off
  if (f.thinking_off && f.off_by_omission) return Form(WireThinking::Form::kUnset);
  if (f.thinking_off) return Form(WireThinking::Form::kOff);
  return InvalidArgument(std::string(model) + " cannot turn thinking off (" + asked +
                         "); it takes " + Takes(f));
}

Result<WireThinking> FromEffort(const ModelFamily& f, std::string_view model,
                                const std::string& effort) {
  const std::string asked = "reasoning_effort '" + effort + "'";
  if (Contains(f.efforts, effort)) return Form(WireThinking::Form::kLevel, effort);
  if (effort == "none") return TurnOff(f, model, asked);
  if (f.on_off) return Form(WireThinking::Form::kOn);
  if (f.budget_max > 0) return Form(WireThinking::Form::kBudget, "", EffortBudget(f, effort));
  return Bad(model, f, asked);
}

Result<WireThinking> FromBudget(const ModelFamily& f, std::string_view model, int64_t budget) {
  const std::string asked = "thinking_budget " + std::to_string(budget);
  if (budget == 0) return TurnOff(f, model, asked);
  if (budget == -1 && f.dynamic_budget) return Form(WireThinking::Form::kBudget, "", -1);
  if (f.budget_max > 0 && budget >= f.budget_min && budget <= f.budget_max) {
    return Form(WireThinking::Form::kBudget, "", budget);
  }
  return Bad(model, f, asked);
}

// The output cap fields a kind's wire format can send.
std::vector<std::string> CapFields(ProviderKind list) {
  switch (list) {
    case ProviderKind::kAnthropic:
      return {"max_tokens"};
    case ProviderKind::kGemini:
      return {"maxOutputTokens"};
    case ProviderKind::kOllama:
      return {"num_predict"};
    default:
      return {"max_tokens", "max_completion_tokens"};
  }
}

const char* ReplayName(ThinkingReplay r) {
  switch (r) {
    case ThinkingReplay::kNone:
      return "none";
    case ThinkingReplay::kBlocks:
      return "blocks";
    case ThinkingReplay::kSignatures:
      return "signatures";
    case ThinkingReplay::kSignaturesChecked:
      return "signatures-checked";
  }
  return "none";
}

// Model names as the table matches them: without Gemini's "models/", and for Anthropic with
// '.' read as '-' (OpenRouter writes "claude-sonnet-4.5" for "claude-sonnet-4-5").
std::string MatchName(ProviderKind list, std::string_view model) {
  if (model.substr(0, 7) == "models/") model.remove_prefix(7);
  std::string name(model);
  if (list == ProviderKind::kAnthropic) std::replace(name.begin(), name.end(), '.', '-');
  return name;
}

}  // namespace

const std::vector<std::string>& ThinkingLevels() {
  static const std::vector<std::string> kLevels = {"none", "minimal", "low", "medium",
                                                   "high", "xhigh",   "max"};
  return kLevels;
}

int64_t EffortBudget(const ModelFamily& f, std::string_view effort) {
  int64_t b = ThinkingAllowance(effort);
  if (f.kind == ProviderKind::kGemini) {
    // Google's mapping of reasoning_effort onto 2.5 budgets (ai.google.dev/gemini-api/docs/openai).
    b = effort == "minimal" || effort == "low" ? 1024
        : effort == "high"                     ? 24576
        : effort == "xhigh" || effort == "max" ? 32768
                                               : 8192;
  }
  return std::clamp(b, f.budget_min, std::max(f.budget_min, f.budget_max));
}

Result<WireThinking> ResolveThinking(const ModelFamily& family, std::string_view model,
                                     const Thinking& thinking) {
  if (thinking.budget) return FromBudget(family, model, *thinking.budget);
  if (!thinking.effort.empty()) return FromEffort(family, model, thinking.effort);
  return Form(WireThinking::Form::kUnset);
}

Status ApplyFamilyFields(ModelFamily& f, const Json& fields) {
  if (!fields.is_object()) return InvalidArgument("must be a table");
  for (const auto& entry : fields.as_object()) {
    // Named references, not a structured binding: the lambdas below capture them.
    const std::string& key = entry.first;
    const Json& v = entry.second;
    auto bad = [&](const std::string& what) { return InvalidArgument(key + ": " + what); };
    auto flag = [&](bool& out) -> Status {
      if (!v.is_bool()) return bad("must be true or false");
      out = v.as_bool();
      return Status::Ok();
    };
    auto count = [&](int64_t& out, int64_t lo) -> Status {
      if (!v.is_int() || v.as_int() < lo) {
        return bad(lo < 0 ? "must be a whole number >= -1" : "must be a whole number >= 0");
      }
      out = v.as_int();
      return Status::Ok();
    };
    Status st;
    if (key == "efforts") {
      if (!v.is_array()) return bad("must be a list of levels");
      std::vector<std::string> levels;
      for (const Json& x : v.as_array()) {
        if (!x.is_string() || !Contains(ThinkingLevels(), x.as_string())) {
          return bad("unknown level " + (x.is_string() ? "'" + x.as_string() + "'" : ToJson(x)) +
                     " (known: " + JoinOr(ThinkingLevels()) + ")");
        }
        levels.push_back(x.as_string());
      }
      f.efforts = std::move(levels);
    } else if (key == "budget_min" || key == "budget_max") {
      st = count(key == "budget_min" ? f.budget_min : f.budget_max, 0);
    } else if (key == "output_cap" || key == "cache_min_tokens") {
      st = count(key == "output_cap" ? f.output_cap : f.cache_min_tokens, 0);
    } else if (key == "context_window") {
      st = count(f.context_window, 0);
    } else if (key == "dynamic_budget") {
      st = flag(f.dynamic_budget);
    } else if (key == "on_off") {
      st = flag(f.on_off);
    } else if (key == "thinking_off") {
      st = flag(f.thinking_off);
    } else if (key == "off_by_omission") {
      st = flag(f.off_by_omission);
    } else if (key == "thinks_by_default") {
      st = flag(f.thinks_by_default);
    } else if (key == "structured_outputs") {
      st = flag(f.structured_outputs);
    } else if (key == "structured_outputs_doc") {
      if (!v.is_string()) return bad("must be a string");
      f.structured_outputs_doc = v.as_string();
    } else if (key == "reports_thinking_tokens") {
      st = flag(f.reports_thinking_tokens);
    } else if (key == "parallel_tool_calls") {
      st = flag(f.parallel_tool_calls);
    } else if (key == "temperature") {
      st = flag(f.temperature);
    } else if (key == "top_p") {
      st = flag(f.top_p);
    } else if (key == "cache_control") {
      st = flag(f.cache_control);
    } else if (key == "replay") {
      std::string r = v.is_string() ? v.as_string() : "";
      bool known = false;
      for (ThinkingReplay kind :
           {ThinkingReplay::kNone, ThinkingReplay::kBlocks, ThinkingReplay::kSignatures,
            ThinkingReplay::kSignaturesChecked}) {
        if (r == ReplayName(kind)) {
          f.replay = kind;
          known = true;
        }
      }
      if (!known) {
        return bad("must be \"none\", \"blocks\", \"signatures\" or \"signatures-checked\"");
      }
    } else if (key == "api") {
      auto api = v.is_string() ? ParseOpenAiApi(v.as_string())
                               : Result<OpenAiApi>(InvalidArgument("must be a string"));
      if (!api.ok()) return bad(api.status().message());
      if (*api == OpenAiApi::kResponses && f.kind != ProviderKind::kOpenAi) {
        return bad("\"responses\" is OpenAI's own API: only openai rows take it");
      }
      f.api = *api;
    } else if (key == "cap_field") {
      const std::vector<std::string> fields = CapFields(f.kind);
      if (!v.is_string() || !Contains(fields, v.as_string())) {
        std::vector<std::string> quoted;
        for (const std::string& name : fields) quoted.push_back("\"" + name + "\"");
        return bad("must be " + JoinOr(quoted));
      }
      f.cap_field = v.as_string();
    } else if (key == "doc") {
      if (!v.is_string()) return bad("must be a string");
      f.doc = v.as_string();
    } else if (key != "like") {
      return bad(
          "unknown key (known: api, efforts, budget_min, budget_max, dynamic_budget, on_off, "
          "thinking_off, off_by_omission, thinks_by_default, reports_thinking_tokens, "
          "structured_outputs, structured_outputs_doc, replay, "
          "parallel_tool_calls, temperature, "
          "top_p, cap_field, output_cap, context_window, cache_control, cache_min_tokens, doc, "
          "like)");
    }
    STRUCTURE_RETURN_IF_ERROR(st);
  }
  if (f.budget_max > 0 && f.budget_min > f.budget_max) {
    return InvalidArgument("budget_min: must be at most budget_max (" +
                           std::to_string(f.budget_max) + ")");
  }
  return Status::Ok();
}

const ModelFamily* ModelTable::Match(ProviderKind list, std::string_view model) const {
  std::string name = MatchName(list, model);
  const ModelFamily* best = nullptr;
  for (const ModelFamily& f : rows_) {
    if (f.kind != list || name.compare(0, f.prefix.size(), f.prefix) != 0) continue;
    // Equal prefixes: the later row (a config override) wins.
    if (!best || f.prefix.size() >= best->prefix.size()) best = &f;
  }
  return best;
}

ModelFamily ModelTable::Find(ProviderKind kind, std::string_view model) const {
  ProviderKind list = InfoOf(kind).families;
  if (kind == ProviderKind::kOpenRouter) {
    static constexpr std::pair<std::string_view, ProviderKind> kVendors[] = {
        {"openai/", ProviderKind::kOpenAi},
        {"anthropic/", ProviderKind::kAnthropic},
        {"google/", ProviderKind::kGemini}};
    const ModelFamily* own = Match(ProviderKind::kOpenRouter, model);
    // A config row for this very name is taken as it is.
    if (own && own->from_config && !own->prefix.empty()) return *own;
    for (const auto& [vendor, vendor_kind] : kVendors) {
      if (model.substr(0, vendor.size()) != vendor) continue;
      const ModelFamily* f = Match(vendor_kind, model.substr(vendor.size()));
      if (!f || !own) break;
      // The vendor's parameters; OpenRouter's own cap field and thinking.
      ModelFamily routed = *f;
      routed.efforts = own->efforts;
      routed.budget_min = own->budget_min;
      routed.budget_max = own->budget_max;
      routed.dynamic_budget = own->dynamic_budget;
      routed.on_off = own->on_off;
      routed.thinking_off = own->thinking_off;
      routed.off_by_omission = own->off_by_omission;
      // OpenRouter's structured outputs are its own (it routes to endpoints that have them).
      routed.structured_outputs = own->structured_outputs;
      routed.structured_outputs_doc = own->structured_outputs_doc;
      routed.replay = own->replay;
      routed.cap_field = own->cap_field;
      return routed;
    }
    if (own) return *own;
  }
  if (const ModelFamily* f = Match(list, model)) return *f;
  ModelFamily none;
  none.kind = list;
  return none;
}

std::shared_ptr<const ModelTable> ModelTable::Builtin() {
  static const std::shared_ptr<const ModelTable> kTable = [] {
    std::vector<ModelFamily> rows;
    Status st = AddBuiltinRows(rows);
    (void)st;  // ModelTableTest.EveryBuiltinRowAppliesAndCitesItsPage checks every row applies
    return std::make_shared<const ModelTable>(std::move(rows));
  }();
  return kTable;
}

Result<std::shared_ptr<const ModelTable>> ModelTable::WithOverrides(
    const std::vector<FamilyOverride>& overrides) {
  std::shared_ptr<const ModelTable> base = Builtin();
  if (overrides.empty()) return base;
  ModelTable table = *base;
  for (const FamilyOverride& o : overrides) {
    std::string where = std::string(InfoOf(o.kind).name) + ".\"" + o.prefix + "\"";
    ProviderKind list = InfoOf(o.kind).families;
    std::string from = o.prefix;
    if (const Json* like = o.fields.is_object() ? o.fields.find("like") : nullptr) {
      if (!like->is_string()) return InvalidArgument(where + ".like: must be a model prefix");
      from = like->as_string();
    }
    const ModelFamily* start = table.Match(list, from);
    ModelFamily f = start ? *start : ModelFamily{};
    f.kind = list;
    f.prefix = o.prefix;
    f.from_config = true;
    Status st = ApplyFamilyFields(f, o.fields);
    if (!st.ok()) return InvalidArgument(where + "." + st.message());
    table.rows_.push_back(std::move(f));
  }
  return std::make_shared<const ModelTable>(std::move(table));
}

ModelFamily FamilyFor(const Endpoint& endpoint, std::string_view model) {
  return (endpoint.models ? *endpoint.models : *ModelTable::Builtin()).Find(endpoint.kind, model);
}

std::string NoStructuredOutputsReason(const ModelFamily& family, std::string_view model) {
  if (family.structured_outputs) return "";
  std::string why = std::string(model) + " has no structured outputs";
  if (!family.structured_outputs_doc.empty()) why += " (" + family.structured_outputs_doc + ")";
  return why + ": the schema goes in the prompt and the answer is validated locally";
}

OpenAiApi ApiFor(const Endpoint& endpoint, std::string_view model) {
  if (endpoint.openai_api != OpenAiApi::kByModel) return endpoint.openai_api;
  return FamilyFor(endpoint, model).api;
}

Json FamilyToJson(const ModelFamily& f) {
  Json j = Json::MakeObject();
  j.set("kind", std::string(InfoOf(f.kind).name));
  j.set("prefix", f.prefix);
  j.set("source", f.from_config ? "config" : "built in");
  Json efforts = Json::MakeArray();
  for (const std::string& e : f.efforts) efforts.push_back(Json(e));
  j.set("efforts", std::move(efforts));
  if (f.kind == ProviderKind::kOpenAi) j.set("api", std::string(OpenAiApiName(f.api)));
  if (f.budget_max > 0) {
    j.set("budgetMin", f.budget_min);
    j.set("budgetMax", f.budget_max);
    j.set("dynamicBudget", f.dynamic_budget);
  }
  j.set("onOff", f.on_off);
  j.set("thinkingOff", f.thinking_off);
  j.set("offByOmission", f.off_by_omission);
  j.set("thinksByDefault", f.thinks_by_default);
  j.set("structuredOutputs", f.structured_outputs);
  if (!f.structured_outputs_doc.empty()) j.set("structuredOutputsDoc", f.structured_outputs_doc);
  j.set("reportsThinkingTokens", f.reports_thinking_tokens);
  j.set("replay", ReplayName(f.replay));
  j.set("parallelToolCalls", f.parallel_tool_calls);
  j.set("temperature", f.temperature);
  j.set("topP", f.top_p);
  j.set("capField", f.cap_field);
  j.set("outputCap", f.output_cap);
  j.set("contextWindow", f.context_window);
  j.set("cacheControl", f.cache_control);
  j.set("cacheMinTokens", f.cache_min_tokens);
  j.set("doc", f.doc);
  return j;
}

}  // namespace structure::providers
