#include "actors/request_actor.h"

#include <algorithm>
#include <exception>
#include <unordered_map>
#include <vector>

#include "actors/engine_messages.h"
#include "actors/input_parts.h"
#include "actors/loop_driver.h"
#include "actors/plan_cache.h"
#include "base/json_same.h"
#include "config/settings.h"
#include "pipeline/call_trace.h"
#include "pipeline/files/input_files.h"
#include "pipeline/input/plan.h"
#include "pipeline/loop/array_answer.h"
#include "pipeline/schema_builder.h"
#include "pipeline/schema_stage.h"
#include "providers/models.h"

namespace structure::actors {

namespace {

using pipeline::CallResult;
using pipeline::Outcome;

// One call in a host.
struct Call {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  pipeline::StructureRequest request;
  ResultCallback done;
  pipeline::SemanticCheck check;
  std::function<void(pipeline::PreparedCall)> prepared;
  config::Settings settings;
  Target target;
  std::string origin;
  providers::Usage builder_usage;
  // What makes the plan again when the provider refuses a schema as too large (the schema's
  // key and how to compile it), how often that happened and what those calls cost.
  std::string schema_key;
  std::function<Result<pipeline::ResolvedSchema>()> resolve;
  int relearned = 0;
  providers::Usage refused_usage;
  pipeline::CallTiming refused_timing;              // the refused calls' times (the deadline's)
  std::vector<pipeline::TraceRound> refused_trace;  // their rounds, when traced
  // The attached files, made ready for the target's kind before any call (null: none).
  std::shared_ptr<const pipeline::PreparedFiles> files;
};

// How many times one call plans again after "too large" before it reports the error.
constexpr int kMaxRelearn = 4;

// A finished call's result, waiting for the next flush.
struct Finished {
  ResultCallback done;
  CallResult result;
};

// Runs callbacks; one that throws must not take the others (or the host) with it.
void RunCallbacks(std::vector<Finished>& finished) {
  for (Finished& f : finished) {
    try {
      f.done(std::move(f.result));
    } catch (...) {
    }
  }
  finished.clear();
}

struct HostState {
  std::shared_ptr<const EngineContext> ctx;
  std::unordered_map<uint64_t, std::unique_ptr<Call>> calls;  // by call id
  uint64_t next_id = 1;
  std::vector<Finished> finished;  // results of this mailbox drain, not yet handed out
  LoopWaits waits;                 // content loops waiting for a pool reply
  // The last inline schemas and their cache keys, the latest first: a request whose schema is
  // one of them (the same object, as a batch job's --schema, or the same text, as clients that
  // send one schema with every call) skips writing it. Holding them keeps their addresses from
  // being reused.
  std::vector<std::pair<std::shared_ptr<const Json>, std::string>> recent_schemas;

  ~HostState() {
    RunCallbacks(finished);
    for (auto& [id, call] : calls) {
      auto r = pipeline::ErrorResult(ErrorCode::kCancelled,
                                     "the engine stopped before the call finished");
      r.schema_origin = call->origin;
      call->done(std::move(r));
    }
  }
};

using Self = caf::stateful_actor<HostState>*;

// Forgets the call and queues its result. Results are handed out together by a flush message
// that follows the replies already in the mailbox: calls that finish in one burst reach the
// caller (e.g. the batch writer thread) in one burst, so it wakes once for all of them.
void Deliver(Self self, uint64_t id, CallResult r) {
  auto it = self->state.calls.find(id);
  if (it == self->state.calls.end()) return;
  std::unique_ptr<Call> call = std::move(it->second);
  self->state.calls.erase(it);
  if (r.schema_origin.empty()) r.schema_origin = call->origin;
  if (r.provider.empty() && call->target.provider != nullptr)
    r.provider = call->target.provider->config.name;
  if (r.model.empty() && call->target.provider != nullptr) r.model = call->target.model;
  r.usage += call->builder_usage;
  r.usage += call->refused_usage;
  if (call->files && r.status != Outcome::kError)
    r.notes.insert(r.notes.end(), call->files->notes.begin(), call->files->notes.end());
  if (r.call_trace && !call->refused_trace.empty()) {
    auto trace = std::make_shared<pipeline::CallTrace>();
    trace->rounds = std::move(call->refused_trace);
    trace->rounds.insert(trace->rounds.end(), r.call_trace->rounds.begin(),
                         r.call_trace->rounds.end());
    r.call_trace = std::move(trace);
  }
  if (self->state.finished.empty()) self->send(self, flush_atom_v);
  self->state.finished.push_back({std::move(call->done), std::move(r)});
}

void Fail(Self self, uint64_t id, ErrorCode code, std::string message) {
  Deliver(self, id, pipeline::ErrorResult(code, std::move(message)));
}

// Runs one step of a call; an exception (a bug, or memory exhausted) ends that call with an
// internal error instead of the host and every other call on it.
template <typename F>
void Guarded(Self self, uint64_t id, F&& step) {
  try {
    step();
  } catch (const std::exception& e) {
    Fail(self, id, ErrorCode::kInternal, std::string("unexpected exception: ") + e.what());
  } catch (...) {
    Fail(self, id, ErrorCode::kInternal, "unexpected exception");
  }
}

Lane LaneOf(const pipeline::StructureRequest& r) {
  return r.priority == pipeline::Priority::kBulk ? Lane::kBulk : Lane::kInteractive;
}

// "provider/model": what a learned grammar ceiling is kept under.
std::string ModelKey(const Target& t) { return t.provider->config.name + "/" + t.model; }

// The plan cache key: the target (its profile follows from it), the grammar ceiling learned for
// the model (0: none), the plan options, whether the plan is for a provider batch (which may
// take the schema in another form) and `schema_key` (what identifies the schema and its
// manual).
std::string PlanKey(const Target& target, const pipeline::PlanOptions& options,
                    const std::string& schema_key, bool prepared = false, size_t ceiling = 0) {
  std::string key = target.provider->config.name + "/" + target.model;
  if (ceiling > 0) key += " grammar<=" + std::to_string(ceiling);
  key += " " + pipeline::PlanOptionsKey(options);
  if (prepared) key += " batch=" + target.profile->batch_schema_field;
  return key + "\n" + schema_key;
}

// The plan options of a call to `target`: the request's and the settings', and the prompted path
// for a model without structured outputs (the model table), with the reason.
pipeline::PlanOptions PlanOptionsOf(const Target& target, const pipeline::StructureRequest& request,
                                    const config::Settings& settings) {
  pipeline::PlanOptions options = pipeline::PlanOptionsFor(request, settings);
  std::string why = providers::NoStructuredOutputsReason(
      providers::FamilyFor(target.provider->endpoint, target.model), target.model);
  if (!why.empty() && options.require_provider_strict_output) {
    options.require_provider_strict_output = false;
    options.plain_reason = std::move(why);
  }
  return options;
}

// The content stage's plan for a schema, from the engine's cache (compiled and lowered once
// per distinct schema, target and learned grammar ceiling). `resolve` compiles the schema on a
// miss.
PlanResult PlanFor(Self self, const Call& c, const std::string& schema_key,
                   const std::function<Result<pipeline::ResolvedSchema>()>& resolve) {
  pipeline::PlanOptions options = PlanOptionsOf(c.target, c.request, c.settings);
  PlanCache& plans = *self->state.ctx->plans;
  size_t ceiling = plans.ceilings().Get(ModelKey(c.target));
  return plans.Get(
      PlanKey(c.target, options, schema_key, c.prepared != nullptr, ceiling), [&]() -> PlanResult {
        auto resolved = resolve();
        if (!resolved.ok()) return resolved.status();
        // A provider batch may take the schema in another form (pipeline::BatchProfile).
        auto profile = c.prepared ? pipeline::BatchProfile(*c.target.profile)
                                  : Result<pipeline::Profile>(*c.target.profile);
        if (!profile.ok()) return profile.status();
        if (ceiling > 0 && (profile->max_grammar_size == 0 || ceiling < profile->max_grammar_size))
          profile->max_grammar_size = ceiling;
        auto plan = pipeline::MakeLoopPlan(*resolved, *profile, options);
        if (!plan.ok()) return plan.status();
        return std::shared_ptr<const pipeline::LoopPlan>(std::move(*plan));
      });
}

// Prepare (provider batch APIs): the caller drives the content loop; the call leaves the host.
void HandOver(Self self, uint64_t id, Call& c,
              const std::shared_ptr<const pipeline::LoopPlan>& plan) {
  pipeline::PreparedCall p;
  p.spec = pipeline::MakeLoopSpec(plan, std::move(c.request.prompt), c.settings, c.target.model);
  ApplyTarget(c.target, p.spec);  // the same thinking settings and output cap as a live call
  pipeline::TakeConversation(c.request, p.spec);
  p.spec.files = c.files;
  p.spec.semantic_check = std::move(c.check);
  p.provider = c.target.provider->config.name;
  p.endpoint = c.target.provider->endpoint;
  if (c.target.profile->batch_schema_field == "responseSchema")
    p.endpoint.gemini_legacy_schema = true;
  p.schema_origin = c.origin;
  p.schema_usage = c.builder_usage;
  auto ready = std::move(c.prepared);
  self->state.calls.erase(id);
  ready(std::move(p));
}

void RunContent(Self self, uint64_t id, Call& c, const PlanResult& plan);

// A provider refused a call as longer than the model's context window: the window it stated,
// else 3/5 of what the refused call was estimated at, is the model's from now on (shared).
void LearnWindow(Self self, const Call& c, const CallResult& r) {
  int64_t window = r.stated_window > 0 ? r.stated_window : r.refused_tokens * 3 / 5;
  // The window stated holds what the estimate said the call needed: the estimate counted too
  // few tokens, so the parts are cut smaller than the call that was refused.
  if (r.refused_tokens > 0 && window >= r.refused_tokens) window = r.refused_tokens * 3 / 5;
  if (window > 0)
    self->state.ctx->plans->windows().Lower(ModelKey(c.target), static_cast<size_t>(window));
}

// The context window in force for the call's model and where it comes from: the smaller of the
// one learned from a refusal and the model table's.
pipeline::InputBudget BudgetFor(Self self, const Call& c, const pipeline::LoopSpec& spec) {
  pipeline::InputBudget b;
  auto learned = static_cast<int64_t>(self->state.ctx->plans->windows().Get(ModelKey(c.target)));
  int64_t table = providers::FamilyFor(c.target.provider->endpoint, c.target.model).context_window;
  if (learned > 0 && (table == 0 || learned < table)) {
    b.window = learned;
    b.source = pipeline::WindowSource::kLearned;
  } else if (table > 0) {
    b.window = table;
    b.source = pipeline::WindowSource::kTable;
  }
  b.max_input_tokens_per_call = c.settings.max_input_tokens_per_call;
  b.output_cap = spec.max_tokens > 0 ? spec.max_tokens : spec.plan->max_tokens;
  if (b.window > 0 || b.max_input_tokens_per_call > 0) b.fixed_tokens = pipeline::FixedTokens(spec);
  return b;
}

void OnPartsDone(Self self, uint64_t id, std::shared_ptr<const std::string> doc,
                 std::vector<pipeline::InputPart> layout, std::string reason,
                 std::vector<CallResult> results);

// A prompt longer than one call takes (the model's window, or maxInputTokensPerCall) goes as
// overlapping parts, each asked on its own with the schema every part may answer
// (pipeline::PartSchema) and merged into one answer checked against the ORIGINAL schema
// (pipeline::CombineParts). False: the prompt goes whole, as `run` holds it.
bool RunInParts(Self self, uint64_t id, Call& c, const std::shared_ptr<LoopRun>& run) {
  if (!run->spec.turns.empty() || !c.resolve) return false;  // a conversation goes whole
  pipeline::InputBudget budget = BudgetFor(self, c, run->spec);
  if (budget.window == 0 && budget.max_input_tokens_per_call == 0) return false;
  auto layout = pipeline::PlanInput(run->spec.prompt, budget);
  if (!layout.ok()) {
    Fail(self, id, ErrorCode::kContextTooLong, layout.status().message());
    return true;
  }
  if (layout->parts.empty()) return false;
  auto part_plan =
      PlanFor(self, c, c.schema_key + "\ninput part", [&c]() -> Result<pipeline::ResolvedSchema> {
        auto whole = c.resolve();
        if (!whole.ok()) return whole.status();
        return pipeline::ResolveSchema(pipeline::PartSchema(whole->schema), whole->origin,
                                       whole->manual, whole->version,
                                       c.settings.allow_unresolved_refs);
      });
  if (!part_plan.ok()) {
    Fail(self, id, ErrorCode::kBadSchema, part_plan.status().message());
    return true;
  }
  auto doc = std::make_shared<const std::string>(std::move(run->spec.prompt));
  size_t n = layout->parts.size();
  std::vector<std::shared_ptr<LoopRun>> runs;
  for (size_t i = 0; i < n; ++i) {
    auto part = std::make_shared<LoopRun>();
    part->spec.plan = *part_plan;
    part->spec.prompt = pipeline::PartPrompt(layout->parts[i].Text(*doc), i, n);
    part->spec.instructions = run->spec.instructions;
    part->spec.params = run->spec.params;
    part->spec.model = run->spec.model;
    part->spec.max_loops = run->spec.max_loops;
    // The call's token budget, shared evenly by the parts.
    part->spec.token_budget =
        run->spec.token_budget > 0
            ? std::max<int64_t>(1, run->spec.token_budget / static_cast<int64_t>(n))
            : 0;
    part->spec.thinking = run->spec.thinking;
    part->spec.max_tokens = run->spec.max_tokens;
    part->spec.cap_setting = run->spec.cap_setting;
    part->pool = run->pool;
    part->lane = run->lane;
    part->deadline = run->deadline;
    part->timeout_ms = run->timeout_ms;
    part->timing = run->timing;
    runs.push_back(std::move(part));
  }
  // The semantic check judges the merged answer (OnPartsDone), not a part's.
  c.check = std::move(run->spec.semantic_check);
  RunInputParts(self, self->state.waits, std::move(runs),
                [self, id, doc, parts = layout->parts,
                 reason = layout->reason](std::vector<CallResult> results) mutable {
                  Guarded(self, id, [&] {
                    OnPartsDone(self, id, doc, std::move(parts), std::move(reason),
                                std::move(results));
                  });
                });
  return true;
}

void OnPartsDone(Self self, uint64_t id, std::shared_ptr<const std::string> doc,
                 std::vector<pipeline::InputPart> layout, std::string reason,
                 std::vector<CallResult> results) {
  auto it = self->state.calls.find(id);
  if (it == self->state.calls.end()) return;
  Call& c = *it->second;
  // A part still too long for the model: learn the window it stated and split again.
  for (const CallResult& r : results) {
    if (r.status != Outcome::kError || r.error_code != ErrorCode::kContextTooLong) continue;
    if (c.relearned >= kMaxRelearn) break;
    LearnWindow(self, c, r);
    ++c.relearned;
    for (const CallResult& spent : results) c.refused_usage += spent.usage;
    c.request.prompt = *doc;
    return RunContent(self, id, c, PlanFor(self, c, c.schema_key, c.resolve));
  }
  auto plan = PlanFor(self, c, c.schema_key, c.resolve);
  if (!plan.ok()) return Fail(self, id, ErrorCode::kBadSchema, plan.status().message());
  CallResult r =
      pipeline::CombineParts(std::move(results), layout, *doc, **plan, std::move(reason));
  if (r.status == Outcome::kOk && c.check) {
    std::vector<std::string> lines = c.check(r.data);
    if (!lines.empty()) {
      r.status = Outcome::kStale;
      r.errors = std::move(lines);
      r.data = Json();
    }
  }
  Deliver(self, id, std::move(r));
}

// The loop's end. A provider that refused the schema as too large teaches the model's
// ceiling: the call plans again under it (a split, or a finer one) and asks again at once,
// without spending a round; the refused calls' usage still counts.
void OnLoopDone(Self self, uint64_t id, std::shared_ptr<LoopRun> run, CallResult r) {
  auto it = self->state.calls.find(id);
  if (it == self->state.calls.end()) return;
  Call& c = *it->second;
  bool too_long = r.status == Outcome::kError && r.error_code == ErrorCode::kContextTooLong &&
                  run && run->spec.turns.empty();
  if (too_long && c.resolve && c.relearned < kMaxRelearn) {
    LearnWindow(self, c, r);
    ++c.relearned;
    c.refused_usage += r.usage;
    c.refused_timing = run->timing;
    c.request.prompt = std::move(run->spec.prompt);
    c.request.instructions = std::move(run->spec.instructions);
    c.check = std::move(run->spec.semantic_check);
    return RunContent(self, id, c, PlanFor(self, c, c.schema_key, c.resolve));
  }
  if (r.status != Outcome::kError || r.error_code != ErrorCode::kSchemaTooLarge ||
      r.rejected_grammar == 0 || !c.resolve || c.relearned >= kMaxRelearn || !run)
    return Deliver(self, id, std::move(r));
  ++c.relearned;
  c.refused_usage += r.usage;
  c.refused_timing = run->timing;
  if (r.call_trace) {
    c.refused_trace.insert(c.refused_trace.end(), r.call_trace->rounds.begin(),
                           r.call_trace->rounds.end());
  }
  self->state.ctx->plans->ceilings().Learn(ModelKey(c.target), r.rejected_grammar);
  // What the loop took from the call, for the next one.
  c.request.prompt = std::move(run->spec.prompt);
  c.request.turns.clear();
  for (providers::Turn& t : run->spec.turns) {
    TurnRole role = t.role == providers::Role::kAssistant ? TurnRole::kAssistant : TurnRole::kUser;
    c.request.turns.push_back({role, std::move(t.text)});
  }
  c.request.instructions = std::move(run->spec.instructions);
  c.check = std::move(run->spec.semantic_check);
  RunContent(self, id, c, PlanFor(self, c, c.schema_key, c.resolve));
}

// Content stage: drives the loop on the plan. The request's prompt moves into the loop and its
// schema is released: an in-flight call keeps only what it still needs (and what makes the
// plan again).
void RunContent(Self self, uint64_t id, Call& c, const PlanResult& plan) {
  if (!plan.ok()) return Fail(self, id, ErrorCode::kBadSchema, plan.status().message());
  if (c.prepared) return HandOver(self, id, c, *plan);
  auto run = std::make_shared<LoopRun>();
  run->lane = LaneOf(c.request);
  run->spec =
      pipeline::MakeLoopSpec(*plan, std::move(c.request.prompt), c.settings, c.target.model);
  ApplyTarget(c.target, run->spec);
  // The calls refused as too large spent part of the token budget.
  int64_t refused = c.refused_usage.input_tokens + c.refused_usage.output_tokens;
  if (run->spec.token_budget > 0 && refused > 0)
    run->spec.token_budget = std::max<int64_t>(1, run->spec.token_budget - refused);
  pipeline::TakeConversation(c.request, run->spec);
  run->spec.files = c.files;
  run->spec.semantic_check = std::move(c.check);
  run->spec.trace = c.request.trace;
  run->check = CheckFor(*self->state.ctx, c.request.tenant);
  if (run->check) {
    run->spec.external_check = true;
    run->check_runner = self->state.ctx->check_runner;
  }
  c.request.schema.reset();
  c.request.metadata = Json();
  run->pool = c.target.provider->pool;
  run->timeout_ms = c.settings.call_timeout_ms;
  run->deadline = c.start + std::chrono::milliseconds(c.settings.call_timeout_ms);
  run->timing = c.refused_timing;
  std::weak_ptr<LoopRun> weak = run;
  run->on_finish = [self, id, weak](CallResult r) {
    OnLoopDone(self, id, weak.lock(), std::move(r));
  };
  if (RunInParts(self, id, c, run)) return;
  StartLoop(self, self->state.waits, run);
}

// How many inline schemas a host remembers with their keys.
constexpr size_t kRecentSchemas = 4;

// "inline\n" + the schema's text: from `recent` when it holds the schema (comparing is a
// fraction of the cost of writing it), else written and remembered there.
std::string InlineSchemaKey(
    std::vector<std::pair<std::shared_ptr<const Json>, std::string>>& recent,
    const std::shared_ptr<const Json>& schema) {
  for (size_t i = 0; i < recent.size(); ++i) {
    if (recent[i].first == schema || SameJsonText(*recent[i].first, *schema)) {
      std::rotate(recent.begin(), recent.begin() + static_cast<std::ptrdiff_t>(i),
                  recent.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      return recent.front().second;
    }
  }
  if (recent.size() == kRecentSchemas) recent.pop_back();
  recent.insert(recent.begin(), {schema, "inline\n" + ToJson(*schema)});
  return recent.front().second;
}

void RunInline(Self self, uint64_t id, Call& c) {
  auto& st = self->state;
  c.origin = "inline";
  c.schema_key = InlineSchemaKey(st.recent_schemas, c.request.schema);
  c.resolve = [schema = c.request.schema, allow = c.settings.allow_unresolved_refs] {
    return pipeline::ResolveSchema(*schema, "inline", "", "", allow);
  };
  RunContent(self, id, c, PlanFor(self, c, c.schema_key, c.resolve));
}

void RunNamed(Self self, uint64_t id, Call& c) {
  registry::Scope scope{c.request.tenant, c.request.project};
  auto found = self->state.ctx->registry->Find(c.request.schema_ref, scope);
  if (!found.ok()) {
    bool unknown = found.status().code() == Code::kNotFound;
    return Fail(self, id, unknown ? ErrorCode::kUnknownSchema : ErrorCode::kBadRequest,
                found.status().message());
  }
  c.origin = found->origin;
  // A stored schema changes its update time with every put; bundled ones never change.
  c.schema_key = found->origin + "\n" + found->name + "\n" + found->version + "\n" +
                 std::to_string(found->updated_at_ms);
  // Kept (by value) for a second plan under a learned grammar ceiling.
  c.resolve = [found = std::move(*found), array = c.request.array_mode,
               allow = c.settings.allow_unresolved_refs] {
    Json schema = found.schema;
    if (array) schema = pipeline::ArrayModeSchema(std::move(schema));
    auto resolved = pipeline::ResolveSchema(std::move(schema), found.origin, found.manual,
                                            found.version, allow);
    if (resolved.ok()) resolved->name = found.name;
    return resolved;
  };
  RunContent(self, id, c, PlanFor(self, c, c.schema_key, c.resolve));
}

// After the builder: the inferred schema, or the builder's need / failure as the result.
void OnBuilt(Self self, uint64_t id, BuildOutcome& o) {
  auto it = self->state.calls.find(id);
  if (it == self->state.calls.end()) return;
  Call& c = *it->second;
  c.builder_usage = o.loop.usage;
  auto d = pipeline::DecideBuilderResult(o.loop, c.settings.confidence_threshold);
  switch (d.status) {
    case Outcome::kOk: {
      // Cached like inline schemas: the builder cache returns the same schema for the same
      // description.
      Json schema = std::move(d.schema);
      if (c.request.array_mode) schema = pipeline::ArrayModeSchema(std::move(schema));
      c.schema_key = "inferred\n" + ToJson(schema);
      c.resolve = [schema = std::move(schema), allow = c.settings.allow_unresolved_refs] {
        return pipeline::ResolveSchema(schema, "inferred", "", "", allow);
      };
      return RunContent(self, id, c, PlanFor(self, c, c.schema_key, c.resolve));
    }
    case Outcome::kNeedMoreInput: {
      CallResult r;
      r.status = Outcome::kNeedMoreInput;
      r.need = d.need;
      return Deliver(self, id, std::move(r));
    }
    default: {
      CallResult r = o.loop;
      r.iterations = 0;  // builder calls are not content-stage iterations
      r.usage = {};      // counted in builder_usage
      if (r.status == Outcome::kStale) {
        r.errors.insert(r.errors.begin(), "the schema builder could not produce a valid schema");
      }
      return Deliver(self, id, std::move(r));
    }
  }
}

void RunText(Self self, uint64_t id, Call& c) {
  const EngineContext& ctx = *self->state.ctx;
  c.origin = "inferred";
  auto builder = ResolveTarget(ctx, c.settings.schema_builder_model);
  if (!builder.ok()) return Fail(self, id, ErrorCode::kBadConfig, builder.status().message());
  pipeline::PlanOptions options = PlanOptionsOf(*builder, {}, c.settings);
  options.evidence = config::EvidenceMode::kOff;  // the builder's answer is no extraction
  auto plan = ctx.plans->Get(PlanKey(*builder, options, "builder"), [&]() -> PlanResult {
    auto made = pipeline::MakeLoopPlan(pipeline::BuilderSchema(), *builder->profile, options);
    if (!made.ok()) return made.status();
    pipeline::ConfigureBuilderPlan(**made);
    return std::shared_ptr<const pipeline::LoopPlan>(std::move(*made));
  });
  if (!plan.ok()) return Fail(self, id, ErrorCode::kInternal, plan.status().message());
  BuildJob job;
  job.normalized = pipeline::NormalizeDescription(c.request.schema_ref);
  // The builder model is part of the key: another model may build another schema.
  job.key = pipeline::DescriptionKey(builder->provider->config.name + "/" + builder->model + "\n" +
                                     job.normalized);
  job.spec = pipeline::MakeLoopSpec(*plan, pipeline::BuilderPrompt(c.request.schema_ref),
                                    c.settings, builder->model);
  ApplyTarget(*builder, job.spec);
  pipeline::ConfigureBuilderLoop(job.spec);
  job.pool = builder->provider->pool;
  job.lane = LaneOf(c.request);
  job.timeout_ms = c.settings.call_timeout_ms;
  job.deadline = c.start + std::chrono::milliseconds(c.settings.call_timeout_ms);
  self->request(ctx.builder_cache, caf::infinite, build_atom_v, std::move(job))
      .then([self, id](BuildOutcome& o) { Guarded(self, id, [&] { OnBuilt(self, id, o); }); },
            [self, id](caf::error& e) {
              Fail(self, id, ErrorCode::kInternal, "builder cache failed: " + caf::to_string(e));
            });
}

void Start(Self self, uint64_t id, Call& c) {
  const EngineContext& ctx = *self->state.ctx;
  auto settings =
      config::ResolveSettings(ctx.config, c.request.tenant, c.request.project, c.request.settings);
  if (!settings.ok()) return Fail(self, id, ErrorCode::kBadRequest, settings.status().message());
  c.settings = std::move(*settings);
  auto target = ResolveTarget(ctx, c.settings.model);
  if (!target.ok()) return Fail(self, id, ErrorCode::kBadRequest, target.status().message());
  c.target = std::move(*target);
  if (!c.request.files.empty()) {
    // Refused here, before any call: a file the target's provider cannot take, a damaged or
    // encrypted PDF, a file over the limits.
    auto files = pipeline::PrepareFiles(std::move(c.request.files),
                                        c.target.provider->endpoint.kind, c.request.files_as);
    c.request.files.clear();
    if (!files.ok()) return Fail(self, id, ErrorCode::kBadRequest, files.status().message());
    c.files = std::make_shared<const pipeline::PreparedFiles>(std::move(*files));
  }
  switch (c.request.mode) {
    case pipeline::SchemaMode::kJson:
      return RunInline(self, id, c);
    case pipeline::SchemaMode::kNamed:
      return RunNamed(self, id, c);
    case pipeline::SchemaMode::kText:
      return RunText(self, id, c);
  }
}

caf::behavior RequestHost(Self self, std::shared_ptr<const EngineContext> ctx) {
  self->state.ctx = std::move(ctx);
  self->set_down_handler(
      [self](caf::down_msg& down) { OnPoolDown(self, self->state.waits, down); });
  return {
      [self](RequestJob& job) {
        uint64_t id = self->state.next_id++;
        auto call = std::make_unique<Call>();
        call->request = std::move(job.request);
        call->done = std::move(job.done);
        call->check = std::move(job.check);
        call->prepared = std::move(job.prepared);
        Call& c = *call;
        self->state.calls.emplace(id, std::move(call));
        Guarded(self, id, [&] { Start(self, id, c); });
      },
      [self](PoolReply& reply) { OnPoolReply(self, self->state.waits, reply); },
      [self](CheckDone& done) { OnCheckDone(self, self->state.waits, done); },
      [self](flush_atom) { RunCallbacks(self->state.finished); },
  };
}

}  // namespace

caf::actor SpawnRequestHost(caf::actor_system& system, std::shared_ptr<const EngineContext> ctx) {
  return system.spawn(RequestHost, std::move(ctx));
}

void SubmitRequest(const caf::actor& host, RequestJob job) { caf::anon_send(host, std::move(job)); }

}  // namespace structure::actors
