#include "pipeline/schema_stage.h"

#include "pipeline/lift.h"
#include "pipeline/lower.h"
#include "pipeline/need_channel.h"

namespace structure::pipeline {

Result<ResolvedSchema> ResolveSchema(Json schema, std::string origin, std::string manual,
                                     std::string version) {
  auto compiled = CompileSchema(schema);
  if (!compiled.ok()) return InvalidArgument("schema: " + compiled.status().message());
  ResolvedSchema r;
  r.schema = std::move(schema);
  r.validator = std::move(*compiled);
  r.manual = std::move(manual);
  r.origin = std::move(origin);
  r.version = std::move(version);
  return r;
}

Result<LoopSpec> MakeContentSpec(const StructureRequest& request, const ResolvedSchema& schema,
                                 const Profile& profile, const config::Settings& settings,
                                 const std::string& model) {
  LoopSpec spec;
  spec.prompt = request.prompt;
  spec.manual = schema.manual;
  spec.validator = schema.validator;
  spec.original_schema = schema.schema;
  spec.model = model;
  spec.max_loops = settings.max_loops;
  spec.token_budget = settings.token_budget;
  spec.final_tool = request.final_tool;
  spec.array_mode = request.array_mode;

  auto lowered = Lower(schema.schema, profile);
  if (!lowered.ok()) return InvalidArgument("schema: " + lowered.status().message());
  Lowered low = std::move(*lowered);
  if (!settings.require_provider_strict_output && low.strict) {
    // The model cannot do strict output: ask in plain JSON mode, validate locally.
    low.strict = false;
    low.provider_schema = schema.schema;
    low.lift_plan = LiftPlan{};
    low.need = MakeNeedForm(schema.schema, NeedKind::kPromptOnly);
  }
  spec.strict = low.strict;
  NeedForm form = low.need;
  if (request.final_tool) {
    // Final-tool mode: the answer tool takes the lowered schema itself; the need channel is the
    // second tool, which every tool-calling provider accepts.
    spec.provider_schema = low.provider_schema;
    form = MakeNeedForm(low.provider_schema, NeedKind::kSecondTool);
  } else {
    spec.provider_schema = low.strict ? form.schema : schema.schema;
  }
  switch (form.kind) {
    case NeedKind::kSecondTool:
      spec.need = providers::NeedChannel::kTool;
      if (const Json* name = form.tool.find("name")) spec.need_tool_name = name->as_string();
      if (const Json* input = form.tool.find("input_schema")) spec.need_schema = *input;
      break;
    case NeedKind::kEnvelope:
    case NeedKind::kRootAnyOf:
      spec.need = providers::NeedChannel::kEnvelope;
      break;
    case NeedKind::kPromptOnly:
      spec.need = providers::NeedChannel::kNone;
      break;
  }
  LiftPlan plan = low.lift_plan;
  spec.detect_need = [form](const Json& out) { return DetectNeed(out, form); };
  spec.lift = [form, plan](const Json& out) -> Result<Json> {
    auto target = UnwrapNeed(out, form);
    if (!target.ok()) return target.status();
    return Lift(*target, plan);
  };
  return spec;
}

}  // namespace structure::pipeline
