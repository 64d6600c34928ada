#include "apps/structure/run_dry.h"

#include <cstdio>
#include <future>
#include <memory>
#include <variant>

#include "base/error_codes.h"
#include "config/settings.h"
#include "engine/engine_internal.h"
#include "pipeline/input/plan.h"
#include "providers/models.h"

namespace structure::apps {

int PrintRunPlan(Engine& engine, StructureRequest request) {
  auto promise =
      std::make_shared<std::promise<std::variant<pipeline::PreparedCall, pipeline::CallResult>>>();
  auto future = promise->get_future();
  const config::EngineConfig& cfg = EngineInternal::Config(engine);
  auto settings = config::ResolveSettings(cfg, request.tenant, request.project, request.settings);
  EngineInternal::Prepare(
      engine, std::move(request),
      [promise](pipeline::PreparedCall p) { promise->set_value(std::move(p)); },
      [promise](pipeline::CallResult r) { promise->set_value(std::move(r)); });
  auto got = future.get();
  if (auto* r = std::get_if<pipeline::CallResult>(&got)) {
    std::printf("%s\n", ToJson(pipeline::ResultToJson(std::move(*r)), true).c_str());
    return r->status == pipeline::Outcome::kError ? ErrorCodeFactsOf(r->error_code).exit_code : 1;
  }
  pipeline::PreparedCall& p = std::get<pipeline::PreparedCall>(got);
  pipeline::InputBudget b;
  b.window = providers::FamilyFor(p.endpoint, p.spec.model).context_window;
  if (b.window > 0) b.source = pipeline::WindowSource::kTable;
  if (settings.ok()) b.max_input_tokens_per_call = settings->max_input_tokens_per_call;
  b.output_cap = p.spec.max_tokens > 0 ? p.spec.max_tokens : p.spec.plan->max_tokens;
  b.fixed_tokens = pipeline::FixedTokens(p.spec);
  Json out = Json::MakeObject();
  out.set("status", "plan");
  out.set("provider", p.provider);
  out.set("model", p.spec.model);
  out.set("mode", p.spec.plan->split ? "split" : p.spec.plan->strict ? "strict" : "fallback");
  auto plan = pipeline::PlanInput(p.spec.prompt, b);
  if (!plan.ok()) {
    out.set("status", "error");
    out.set("code", "context_too_long");
    out.set("errors", Json(Json::Array{Json(plan.status().message())}));
    std::printf("%s\n", ToJson(out, true).c_str());
    return ErrorCodeFactsOf(ErrorCode::kContextTooLong).exit_code;
  }
  out.set("input", pipeline::InputPlanToJson(*plan, b));
  std::printf("%s\n", ToJson(out, true).c_str());
  return 0;
}

}  // namespace structure::apps
