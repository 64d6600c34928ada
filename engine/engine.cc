#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include <caf/all.hpp>

#include "actors/builder_cache_actor.h"
#include "actors/engine_context.h"
#include "actors/engine_messages.h"
#include "actors/request_actor.h"
#include "config/config_internal.h"
#include "config/database_url.h"
#include "config/settings.h"
#include "config/shared_store.h"
#include "engine/engine_checks.h"
#include "engine/engine_internal.h"
#include "engine/provider_setup.h"
#include "engine/shared_store.h"
#include "pipeline/validator/validator.h"
#include "providers/transport/curl_transport.h"
#include "registry/schema_registry.h"

namespace structure {

struct Engine::Impl {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> system;
  std::shared_ptr<actors::EngineContext> ctx;
  std::vector<caf::actor> hosts;  // request hosts; calls are spread round robin
  std::atomic<uint64_t> next_host{0};
  // Shared with every call's callback: a call cancelled while the engine stops still counts.
  std::shared_ptr<pipeline::CallStats> stats = std::make_shared<pipeline::CallStats>();
  bool hide_tenant_schemas = false;
  std::string database;  // EngineInternal::Database

  // Also runs when Create gives up half way: any of ctx, its pools and the cache may be missing.
  ~Impl() {
    if (!system) return;
    // Checks still running are killed; their answers reach the hosts while they still exist.
    if (ctx && ctx->check_runner) ctx->check_runner->Stop();
    if (ctx) {
      for (auto& [name, p] : ctx->providers) {
        if (p.pool) caf::anon_send_exit(p.pool, caf::exit_reason::user_shutdown);
      }
      if (ctx->builder_cache)
        caf::anon_send_exit(ctx->builder_cache, caf::exit_reason::user_shutdown);
    }
    for (auto& h : hosts) caf::anon_send_exit(h, caf::exit_reason::user_shutdown);
    hosts.clear();
    ctx.reset();
    system.reset();  // waits until every actor is done
  }
};

Engine::Engine(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Engine::~Engine() = default;

Status Engine::Check(const EngineOptions& options) { return CheckEngineOptions(options).status(); }

std::string Engine::RegistryDir(const EngineOptions& options) { return BundledSchemasDir(options); }

Result<std::unique_ptr<Engine>> Engine::Create(EngineOptions options) {
  auto checked = CheckEngineOptions(options);
  if (!checked.ok()) return checked.status();
  const config::EngineConfig& cfg = checked->config;
  std::vector<actors::ProviderPlan>* plans = &checked->plans;

  providers::InitCurlOnce();
  auto impl = std::make_unique<Impl>();
  impl->hide_tenant_schemas = options.hide_tenant_schemas;
  impl->cfg.set("scheduler.policy", caf::atom("sharing"));
  // One scheduler thread per core, less the one the curl I/O thread keeps busy (CAF's default,
  // at least 4, only adds sleeps and wake-ups: 1 thread instead of 2 cut ~20 us of CPU per
  // call on 2 cores, docs/batch.md).
  unsigned cores = std::thread::hardware_concurrency();  // 0 when unknown
  size_t threads = cores > 2 ? cores - 1 : 1;
  impl->cfg.set("scheduler.max-threads", threads);
  impl->cfg.add_message_types<caf::id_block::structure>();
  impl->cfg.add_message_types<caf::id_block::structure_engine>();
  // The system's constructor and every spawn leave a reference to its logger in this thread's
  // thread-local storage, and ~actor_system waits until the logger is gone: destroyed on another
  // thread (the batch writer cancelling on a second Ctrl-C) it would wait forever. Drop it
  // whenever Create returns.
  struct DropLoggerRef {
    ~DropLoggerRef() { caf::logger::set_current_actor_system(nullptr); }
  } drop_logger_ref;
  impl->system = std::make_unique<caf::actor_system>(impl->cfg);

  auto ctx = std::make_shared<actors::EngineContext>();
  impl->ctx = ctx;  // from here on ~Impl stops whatever was started
  ctx->config = cfg;
  ctx->provider_override = options.provider;
  std::function<void(const std::string&)> log = options.log;
  if (!log)
    log = [](const std::string& line) { std::fprintf(stderr, "structure: %s\n", line.c_str()); };
  auto store = actors::OpenSharedStore(cfg.stores, log);
  if (!store.ok()) return store.status();
  actors::SharedLimitConfig shared;
  shared.client = *store;
  shared.fallback_share = config::FallbackShare(cfg.stores);
  // Grammar ceilings learned from "too large" refusals are shared too (actors/learned_ceilings.h).
  ctx->plans->ceilings().UseSharedStore(shared.client);
  ctx->plans->windows().UseSharedStore(shared.client);
  for (actors::ProviderPlan& plan : *plans) {
    actors::ProviderHandle& h = plan.handle;
    plan.pool.shared = shared;
    if (!plan.warning.empty()) log(plan.warning);
    providers::CurlOptions curl;
    curl.network = h.network;
    curl.batch_window = std::chrono::microseconds(h.config.limits.batch_window_us);
    if (h.unusable.ok())
      h.pool = actors::SpawnProviderPool(*impl->system, plan.pool,
                                         providers::CurlTransportFactory(curl));
    std::string name = h.config.name;
    ctx->providers.emplace(std::move(name), std::move(h));
  }

  const std::string& database = checked->database;
  impl->database = database;
  registry::RegistryOptions registry_options;
  // A stored schema must be one a call can use: the validator compiles it strictly (bad keyword
  // values, unresolvable or cyclic $refs, invalid patterns are refused at the PUT).
  registry_options.check_schema = [](const Json& schema) -> Status {
    pipeline::ValidatorOptions strict;
    strict.strict = true;
    auto compiled = pipeline::CompileSchema(schema, strict);
    if (!compiled.ok()) return InvalidArgument(compiled.status().message());
    return Status::Ok();
  };
  auto registry =
      registry::SchemaRegistry::Open(checked->bundled_dir, database, std::move(registry_options));
  if (!registry.ok()) return registry.status();
  ctx->registry = std::move(*registry);
  // The builder cache is SQLite only: with PostgreSQL it stays in memory per process (and in
  // the shared store when one is set).
  auto cache =
      registry::BuilderCacheStore::Open(config::IsPostgresUrl(database) ? ":memory:" : database);
  if (!cache.ok()) return cache.status();
  int64_t ttl_ms = int64_t{cfg.stores.builder_cache_ttl_days} * 24 * 3600 * 1000;
  ctx->builder_cache = actors::SpawnBuilderCache(
      *impl->system, std::shared_ptr<registry::BuilderCacheStore>(std::move(*cache)), ttl_ms,
      shared.client);
  for (const auto& [tenant, check] : options.checks) {
    if (!check.command.empty()) ctx->checks[tenant] = std::make_shared<const CheckCommand>(check);
  }
  if (!ctx->checks.empty()) ctx->check_runner = std::make_shared<actors::CheckRunner>();
  // One request host per scheduler thread, so calls run in parallel on every one.
  for (size_t i = 0; i < threads; ++i)
    impl->hosts.push_back(actors::SpawnRequestHost(*impl->system, ctx));
  return std::unique_ptr<Engine>(new Engine(std::move(impl)));
}

void Engine::Submit(StructureRequest request, ResultCallback done, SemanticCheck check) {
  EngineInternal::Submit(
      *this, std::move(request),
      [done = std::move(done)](pipeline::CallResult r) {
        done(pipeline::PublicResult(std::move(r)));  // the metrics' fields stay here
      },
      std::move(check));
}

std::future<StructureResult> Engine::Submit(StructureRequest request) {
  auto promise = std::make_shared<std::promise<StructureResult>>();
  auto future = promise->get_future();
  Submit(std::move(request), [promise](StructureResult r) { promise->set_value(std::move(r)); });
  return future;
}

StructureResult Engine::Run(StructureRequest request) { return Submit(std::move(request)).get(); }

Result<std::vector<SchemaInfo>> Engine::ListSchemas(const std::string& tenant,
                                                    const std::string& project) const {
  auto list = impl_->ctx->registry->List({tenant, project});
  if (!list.ok()) return list.status();
  std::vector<SchemaInfo> out;
  out.reserve(list->size());
  for (registry::RegisteredSchema& s : *list) {
    out.push_back({std::move(s.name), std::move(s.version), std::move(s.origin)});
  }
  return out;
}

Status Engine::CheckModel(const std::string& model_ref, const std::string& tenant,
                          const std::string& project) const {
  const actors::EngineContext& ctx = *impl_->ctx;
  config::SettingsOverride request;
  if (!model_ref.empty()) request.model = model_ref;
  auto settings = config::ResolveSettings(ctx.config, tenant, project, request);
  if (!settings.ok()) return settings.status();
  return actors::ResolveTarget(ctx, settings->model).status();
}

void EngineInternal::Submit(Engine& engine, StructureRequest request, CallResultCallback done,
                            SemanticCheck check) {
  Engine::Impl& impl = *engine.impl_;
  size_t i = impl.next_host.fetch_add(1, std::memory_order_relaxed) % impl.hosts.size();
  actors::ResultCallback counted = [stats = impl.stats, mode = request.mode,
                                    name = request.schema_ref, hide = impl.hide_tenant_schemas,
                                    started = std::chrono::steady_clock::now(),
                                    done = std::move(done)](pipeline::CallResult r) {
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    stats->Record(pipeline::SchemaLabel(mode, name, r, hide), r, seconds);
    done(std::move(r));
  };
  actors::SubmitRequest(impl.hosts[i], {std::move(request), std::move(counted), std::move(check)});
}

void EngineInternal::Prepare(Engine& engine, StructureRequest request, PreparedCallback ready,
                             CallResultCallback done, SemanticCheck check) {
  Engine::Impl& impl = *engine.impl_;
  size_t i = impl.next_host.fetch_add(1, std::memory_order_relaxed) % impl.hosts.size();
  actors::RequestJob job{std::move(request), std::move(done), std::move(check)};
  job.prepared = std::move(ready);
  actors::SubmitRequest(impl.hosts[i], std::move(job));
}

registry::SchemaRegistry& EngineInternal::Schemas(Engine& engine) {
  return *engine.impl_->ctx->registry;
}

const config::EngineConfig& EngineInternal::Config(const Engine& engine) {
  return engine.impl_->ctx->config;
}

const std::string& EngineInternal::Database(const Engine& engine) { return engine.impl_->database; }

providers::NetworkOptions EngineInternal::Network(const Engine& engine,
                                                  const std::string& provider) {
  const auto& providers = engine.impl_->ctx->providers;
  auto it = providers.find(provider);
  return it == providers.end() ? providers::NetworkOptions{} : it->second.network;
}

pipeline::StatsSnapshot EngineInternal::Stats(const Engine& engine) {
  return engine.impl_->stats->Snapshot();
}

std::shared_ptr<const pipeline::CallStats> EngineInternal::CallStats(const Engine& engine) {
  return engine.impl_->stats;
}

}  // namespace structure
