#include "actors/request_actor.h"

#include "actors/engine_messages.h"
#include "actors/loop_driver.h"
#include "config/settings.h"
#include "pipeline/schema_builder.h"
#include "pipeline/schema_stage.h"

namespace structure::actors {

namespace {

using pipeline::Outcome;
using pipeline::StructureResult;

struct RequestState {
  std::shared_ptr<const EngineContext> ctx;
  pipeline::StructureRequest request;
  ResultCallback done;
  pipeline::SemanticCheck check;
  config::Settings settings;
  Target target;
  std::string origin;
  providers::Usage builder_usage;
  bool delivered = false;

  ~RequestState() {
    if (!delivered && done) {
      auto r = pipeline::ErrorResult("cancelled", "the engine stopped before the call finished");
      r.schema_origin = origin;
      done(std::move(r));
    }
  }
};

using Self = caf::stateful_actor<RequestState>*;

void Deliver(Self self, StructureResult r) {
  auto& st = self->state;
  if (st.delivered) return;
  st.delivered = true;
  if (r.schema_origin.empty()) r.schema_origin = st.origin;
  r.usage.input_tokens += st.builder_usage.input_tokens;
  r.usage.output_tokens += st.builder_usage.output_tokens;
  auto done = std::move(st.done);
  done(std::move(r));
  self->quit();
}

void Fail(Self self, std::string code, std::string message) {
  Deliver(self, pipeline::ErrorResult(std::move(code), std::move(message)));
}

Lane LaneOf(const pipeline::StructureRequest& r) {
  return r.priority == pipeline::Priority::kBulk ? Lane::kBulk : Lane::kInteractive;
}

// Content stage: lower, then drive the loop.
void RunContent(Self self, const pipeline::ResolvedSchema& schema) {
  auto& st = self->state;
  auto spec = pipeline::MakeContentSpec(st.request, schema, st.target.profile, st.settings,
                                        st.target.model);
  if (!spec.ok()) return Fail(self, "bad_schema", spec.status().message());
  spec->semantic_check = st.check;
  auto run = std::make_shared<LoopRun>();
  run->spec = std::move(*spec);
  run->pool = st.target.provider->pool;
  run->lane = LaneOf(st.request);
  run->timeout = st.ctx->call_timeout;
  run->on_finish = [self](StructureResult r) { Deliver(self, std::move(r)); };
  StartLoop(self, run);
}

void RunNamed(Self self) {
  auto& st = self->state;
  registry::Scope scope{st.request.tenant, st.request.project};
  auto found = st.ctx->registry->Find(st.request.schema_ref, scope);
  if (!found.ok()) {
    bool unknown = found.status().code() == Code::kNotFound;
    return Fail(self, unknown ? "unknown_schema" : "bad_request", found.status().message());
  }
  st.origin = found->origin;
  auto resolved = pipeline::ResolveSchema(found->schema, found->origin, found->manual, found->version);
  if (!resolved.ok()) return Fail(self, "bad_schema", resolved.status().message());
  RunContent(self, *resolved);
}

void RunText(Self self) {
  auto& st = self->state;
  st.origin = "inferred";
  auto builder_target = ResolveTarget(*st.ctx, st.settings.schema_builder_model);
  if (!builder_target.ok()) return Fail(self, "bad_config", builder_target.status().message());
  auto spec = pipeline::MakeContentSpec(pipeline::BuilderRequest(st.request.schema_ref),
                                        pipeline::BuilderSchema(), builder_target->profile,
                                        st.settings, builder_target->model);
  if (!spec.ok()) return Fail(self, "internal", spec.status().message());
  pipeline::ConfigureBuilderLoop(*spec);
  BuildJob job;
  job.normalized = pipeline::NormalizeDescription(st.request.schema_ref);
  // The builder model is part of the key: another model may build another schema.
  job.key = pipeline::DescriptionKey(builder_target->provider->config.name + "/" +
                                     builder_target->model + "\n" + job.normalized);
  job.spec = std::move(*spec);
  job.pool = builder_target->provider->pool;
  job.lane = LaneOf(st.request);
  job.timeout = st.ctx->call_timeout;
  self->request(st.ctx->builder_cache, caf::infinite, build_atom_v, std::move(job))
      .then(
          [self](BuildOutcome& o) {
            auto& st = self->state;
            st.builder_usage = o.loop.usage;
            auto d = pipeline::DecideBuilderResult(o.loop, st.settings.confidence_threshold);
            switch (d.status) {
              case Outcome::kOk: {
                auto resolved = pipeline::ResolveSchema(d.schema, "inferred");
                if (!resolved.ok()) return Fail(self, "bad_schema", resolved.status().message());
                return RunContent(self, *resolved);
              }
              case Outcome::kNeedMoreInput: {
                StructureResult r;
                r.status = Outcome::kNeedMoreInput;
                r.need = d.need;
                return Deliver(self, std::move(r));
              }
              default: {
                StructureResult r = o.loop;
                r.iterations = 0;  // builder calls are not content-stage iterations
                r.usage = {};      // counted in builder_usage
                if (r.status == Outcome::kStale) {
                  r.errors.insert(r.errors.begin(), "the schema builder could not produce a valid schema");
                }
                return Deliver(self, std::move(r));
              }
            }
          },
          [self](caf::error& e) { Fail(self, "internal", "builder cache failed: " + caf::to_string(e)); });
}

caf::behavior RequestActor(Self self, std::shared_ptr<const EngineContext> ctx,
                           pipeline::StructureRequest request, ResultCallback done,
                           pipeline::SemanticCheck check) {
  auto& st = self->state;
  st.ctx = std::move(ctx);
  st.request = std::move(request);
  st.done = std::move(done);
  st.check = std::move(check);
  auto settings = config::ResolveSettings(st.ctx->config, st.request.tenant, st.request.project,
                                          st.request.settings);
  if (!settings.ok()) {
    Fail(self, "bad_request", settings.status().message());
    return {};
  }
  st.settings = *settings;
  auto target = ResolveTarget(*st.ctx, st.settings.model);
  if (!target.ok()) {
    Fail(self, "bad_request", target.status().message());
    return {};
  }
  st.target = std::move(*target);
  switch (st.request.mode) {
    case pipeline::SchemaMode::kJson: {
      st.origin = "inline";
      auto resolved = pipeline::ResolveSchema(st.request.schema, "inline");
      if (!resolved.ok()) {
        Fail(self, "bad_schema", resolved.status().message());
      } else {
        RunContent(self, *resolved);
      }
      break;
    }
    case pipeline::SchemaMode::kNamed: RunNamed(self); break;
    case pipeline::SchemaMode::kText: RunText(self); break;
  }
  return {};
}

}  // namespace

void SpawnRequest(caf::actor_system& system, std::shared_ptr<const EngineContext> ctx,
                  pipeline::StructureRequest request, ResultCallback done,
                  pipeline::SemanticCheck check) {
  system.spawn(RequestActor, std::move(ctx), std::move(request), std::move(done), std::move(check));
}

}  // namespace structure::actors
