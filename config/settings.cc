#include "config/settings.h"

#include <cstdio>

namespace structure {

std::string_view EvidenceModeName(EvidenceMode mode) {
  switch (mode) {
    case EvidenceMode::kOff:
      return "off";
    case EvidenceMode::kReport:
      return "report";
    case EvidenceMode::kRequire:
      return "require";
  }
  return "off";
}

std::optional<EvidenceMode> ParseEvidenceMode(std::string_view name) {
  if (name == "off") return EvidenceMode::kOff;
  if (name == "report") return EvidenceMode::kReport;
  if (name == "require") return EvidenceMode::kRequire;
  return std::nullopt;
}

}  // namespace structure

namespace structure::config {

namespace {

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

}  // namespace

Settings ApplyOverride(Settings base, const SettingsOverride& over) {
  if (over.model) base.model = *over.model;
  if (over.schema_builder_model) base.schema_builder_model = *over.schema_builder_model;
  if (over.confidence_threshold) base.confidence_threshold = *over.confidence_threshold;
  if (over.require_provider_strict_output) {
    base.require_provider_strict_output = *over.require_provider_strict_output;
  }
  if (over.max_loops) base.max_loops = *over.max_loops;
  if (over.token_budget) base.token_budget = *over.token_budget;
  if (over.call_timeout_ms) base.call_timeout_ms = *over.call_timeout_ms;
  if (over.allow_unresolved_refs) base.allow_unresolved_refs = *over.allow_unresolved_refs;
  if (over.evidence) base.evidence = *over.evidence;
  if (over.max_input_tokens_per_call)
    base.max_input_tokens_per_call = *over.max_input_tokens_per_call;
  return base;
}

Status CheckOverride(const SettingsOverride& over, const std::string& where) {
  if (over.max_loops && (*over.max_loops < 1 || *over.max_loops > 10)) {
    return InvalidArgument(where + ": maxLoops must be 1..10 (was " +
                           std::to_string(*over.max_loops) + ")");
  }
  if (over.confidence_threshold &&
      !(*over.confidence_threshold >= 0 && *over.confidence_threshold <= 1)) {
    return InvalidArgument(where + ": confidenceThreshold must be 0..1 (was " +
                           Num(*over.confidence_threshold) + ")");
  }
  if (over.token_budget && *over.token_budget < 0) {
    return InvalidArgument(where + ": tokenBudget must be >= 0 (was " +
                           std::to_string(*over.token_budget) + ")");
  }
  if (over.call_timeout_ms &&
      (*over.call_timeout_ms < 1 || *over.call_timeout_ms > kMaxCallTimeoutMs)) {
    return InvalidArgument(where + ": callTimeoutMs must be 1.." +
                           std::to_string(kMaxCallTimeoutMs) + " (was " +
                           std::to_string(*over.call_timeout_ms) + ")");
  }
  if (over.max_input_tokens_per_call && *over.max_input_tokens_per_call < 0) {
    return InvalidArgument(where + ": maxInputTokensPerCall must be >= 0 (was " +
                           std::to_string(*over.max_input_tokens_per_call) + ")");
  }
  if (over.model && over.model->empty()) return InvalidArgument(where + ": model is empty");
  if (over.schema_builder_model && over.schema_builder_model->empty()) {
    return InvalidArgument(where + ": schemaBuilderModel is empty");
  }
  return Status::Ok();
}

Result<Settings> ResolveSettings(const EngineConfig& config, const std::string& tenant,
                                 const std::string& project, const SettingsOverride& request) {
  Settings s = config.settings;
  if (auto t = config.tenants.find(tenant); !tenant.empty() && t != config.tenants.end()) {
    STRUCTURE_RETURN_IF_ERROR(CheckOverride(t->second.settings, "tenant " + tenant));
    s = ApplyOverride(s, t->second.settings);
    if (auto p = t->second.projects.find(project);
        !project.empty() && p != t->second.projects.end()) {
      STRUCTURE_RETURN_IF_ERROR(CheckOverride(p->second, "project " + project));
      s = ApplyOverride(s, p->second);
    }
  }
  STRUCTURE_RETURN_IF_ERROR(CheckOverride(request, "request"));
  s = ApplyOverride(s, request);
  return s;
}

ModelSettings ModelSettingsFor(const ProviderConfig& provider, const std::string& model) {
  ModelSettings m = provider.model_settings;
  auto it = provider.models.find(model);
  if (it == provider.models.end()) return m;
  const ModelSettings& own = it->second;
  if (own.reasoning_effort || own.thinking_budget) {
    m.reasoning_effort = own.reasoning_effort;
    m.thinking_budget = own.thinking_budget;
  }
  if (own.max_output_tokens) m.max_output_tokens = own.max_output_tokens;
  return m;
}

}  // namespace structure::config
