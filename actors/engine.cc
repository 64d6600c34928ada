#include "actors/engine.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <caf/all.hpp>
#include <filesystem>
#include <thread>
#include <vector>

#include "actors/builder_cache_actor.h"
#include "actors/engine_context.h"
#include "actors/engine_messages.h"
#include "actors/request_actor.h"
#include "actors/shared_store.h"
#include "config/shared_store.h"
#include "providers/curl_transport.h"
#include "providers/endpoint.h"

namespace structure {

namespace {

std::string DefaultProfile(const std::string& kind) {
  if (kind == "anthropic") return "anthropic-strict";
  if (kind == "gemini") return "gemini";
  if (kind == "ollama") return "ollama";
  if (kind == "openai-compatible") return "vllm";
  return "openai-strict";  // openai, openrouter (require_parameters keeps strict endpoints)
}

bool IsLoopback(const std::string& url) {
  for (const char* host : {"://127.", "://localhost", "://[::1]"}) {
    if (url.find(host) != std::string::npos) return true;
  }
  return false;
}

Result<actors::ProviderHandle> MakeProvider(caf::actor_system& system,
                                            const config::ProviderConfig& pc,
                                            const std::string& base_url_override,
                                            const actors::SharedLimitConfig& shared) {
  std::string kind_name = pc.kind == "openai-compatible" ? "openai-compat" : pc.kind;
  auto kind = providers::ParseProviderKind(kind_name);
  if (!kind.ok()) return kind.status();
  std::string base = !base_url_override.empty() ? base_url_override : pc.base_url;
  auto endpoint = providers::EndpointFromEnv(*kind, base);
  if (!endpoint.ok()) {
    return Status(endpoint.status().code(),
                  "providers." + pc.name + ": " + endpoint.status().message());
  }
  if (!pc.api_key_env.empty()) {
    const char* key = std::getenv(pc.api_key_env.c_str());
    endpoint->api_key = key != nullptr ? key : "";
  }
  // Local servers (the simulator, vLLM, llama.cpp) take any key; send a placeholder so those
  // that require the header are satisfied. Never done for remote hosts.
  if (endpoint->api_key.empty() && IsLoopback(endpoint->base_url)) endpoint->api_key = "local";
  endpoint->timeout_ms = pc.limits.timeout_ms;

  std::string profile_name = pc.profile.empty() ? DefaultProfile(pc.kind) : pc.profile;
  auto profile = pipeline::FindProfile(profile_name);
  if (!profile.ok()) return InvalidArgument("providers." + pc.name + ".profile: " + profile.status().message());
  if (profile_name == "gemini-legacy") endpoint->gemini_legacy_schema = true;
  if (pc.profile_overrides.is_object()) {
    auto over = pipeline::ApplyProfileOverrides(*profile, pc.profile_overrides);
    if (!over.ok()) {
      return InvalidArgument("providers." + pc.name + ".profile_overrides: " + over.status().message());
    }
    profile = std::move(over);
  }

  actors::PoolConfig pool;
  pool.endpoint = *endpoint;
  pool.limits.max_concurrency = pc.limits.max_concurrency;
  pool.limits.requests_per_minute = pc.limits.requests_per_minute;
  pool.limits.tokens_per_minute = pc.limits.tokens_per_minute;
  pool.shared = shared;
  actors::ProviderHandle h;
  h.config = pc;
  h.profile = std::make_shared<const pipeline::Profile>(std::move(*profile));
  actors::ResolveModelProfiles(h);
  h.pool = actors::SpawnProviderPool(system, pool, providers::CurlTransportFactory());
  return h;
}

std::string BundledDir(const EngineOptions& o) {
  if (!o.registry_dir.empty()) return o.registry_dir;
  const std::string& configured = o.config.stores.registry_dir;
  if (!configured.empty() && std::filesystem::is_directory(configured)) return configured;
  for (const char* dir : {STRUCTURE_INSTALLED_SCHEMAS, STRUCTURE_SOURCE_SCHEMAS}) {
    if (std::filesystem::is_directory(dir)) return dir;
  }
  return "";
}

}  // namespace

struct Engine::Impl {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> system;
  std::shared_ptr<actors::EngineContext> ctx;
  std::vector<caf::actor> hosts;      // request hosts; calls are spread round robin
  std::atomic<uint64_t> next_host{0};
  // Shared with every call's callback: a call cancelled while the engine stops still counts.
  std::shared_ptr<pipeline::CallStats> stats = std::make_shared<pipeline::CallStats>();

  ~Impl() {
    if (!system) return;
    for (auto& [name, p] : ctx->providers) caf::anon_send_exit(p.pool, caf::exit_reason::user_shutdown);
    if (ctx->builder_cache) caf::anon_send_exit(ctx->builder_cache, caf::exit_reason::user_shutdown);
    for (auto& h : hosts) caf::anon_send_exit(h, caf::exit_reason::user_shutdown);
    hosts.clear();
    ctx.reset();
    system.reset();  // waits until every actor is done
  }
};

Engine::Engine(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Engine::~Engine() = default;

Result<std::unique_ptr<Engine>> Engine::Create(EngineOptions options) {
  STRUCTURE_RETURN_IF_ERROR(config::CheckConfig(options.config));
  providers::InitCurlOnce();
  auto impl = std::make_unique<Impl>();
  impl->cfg.set("scheduler.policy", caf::atom("sharing"));
  // One scheduler thread per core, less the one the curl I/O thread keeps busy (CAF's default,
  // at least 4, only adds sleeps and wake-ups: 1 thread instead of 2 cut ~20 us of CPU per
  // call on 2 cores, docs/batch.md).
  unsigned cores = std::thread::hardware_concurrency();  // 0 when unknown
  size_t threads = cores > 2 ? cores - 1 : 1;
  impl->cfg.set("scheduler.max-threads", threads);
  impl->cfg.add_message_types<caf::id_block::structure>();
  impl->cfg.add_message_types<caf::id_block::structure_engine>();
  impl->system = std::make_unique<caf::actor_system>(impl->cfg);

  auto ctx = std::make_shared<actors::EngineContext>();
  ctx->config = options.config;
  ctx->provider_override = options.provider;
  if (!options.provider.empty() && !options.config.providers.count(options.provider)) {
    return NotFound("unknown provider '" + options.provider + "'");
  }
  std::function<void(const std::string&)> log = options.log;
  if (!log) log = [](const std::string& line) { std::fprintf(stderr, "structure: %s\n", line.c_str()); };
  auto store = actors::OpenSharedStore(options.config.stores, log);
  if (!store.ok()) {
    impl->ctx = ctx;
    return store.status();
  }
  actors::SharedLimitConfig shared;
  shared.client = *store;
  shared.fallback_share = config::FallbackShare(options.config.stores);
  int64_t max_timeout = 0;
  for (const auto& [name, pc] : options.config.providers) {
    auto h = MakeProvider(*impl->system, pc, options.base_url, shared);
    if (!h.ok()) {
      impl->ctx = ctx;  // so the pools made so far are stopped
      return h.status();
    }
    max_timeout = std::max<int64_t>(max_timeout, pc.limits.timeout_ms);
    ctx->providers.emplace(name, std::move(*h));
  }
  ctx->call_timeout = std::chrono::milliseconds(
      options.call_timeout_ms > 0 ? options.call_timeout_ms : 10 * max_timeout);

  std::string database = !options.database.empty() ? options.database : options.config.stores.database;
  if (database.empty()) database = ":memory:";
  auto registry = registry::SchemaRegistry::Open(BundledDir(options), database);
  if (!registry.ok()) {
    impl->ctx = ctx;
    return registry.status();
  }
  ctx->registry = std::move(*registry);
  auto cache = registry::BuilderCacheStore::Open(database);
  if (!cache.ok()) {
    impl->ctx = ctx;
    return cache.status();
  }
  int64_t ttl_ms = int64_t{options.config.stores.builder_cache_ttl_days} * 24 * 3600 * 1000;
  ctx->builder_cache = actors::SpawnBuilderCache(
      *impl->system, std::shared_ptr<registry::BuilderCacheStore>(std::move(*cache)), ttl_ms,
      shared.client);
  impl->ctx = ctx;
  // One request host per scheduler thread, so calls run in parallel on every one.
  for (size_t i = 0; i < threads; ++i) impl->hosts.push_back(actors::SpawnRequestHost(*impl->system, ctx));
  return std::unique_ptr<Engine>(new Engine(std::move(impl)));
}

void Engine::Submit(pipeline::StructureRequest request, ResultCallback done,
                    pipeline::SemanticCheck check) {
  size_t i = impl_->next_host.fetch_add(1, std::memory_order_relaxed) % impl_->hosts.size();
  ResultCallback counted = [stats = impl_->stats, mode = request.mode, name = request.schema_ref,
                            started = std::chrono::steady_clock::now(),
                            done = std::move(done)](pipeline::StructureResult r) {
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    stats->Record(pipeline::SchemaLabel(mode, name, r), r, seconds);
    done(std::move(r));
  };
  actors::SubmitRequest(impl_->hosts[i], {std::move(request), std::move(counted), std::move(check)});
}

std::future<pipeline::StructureResult> Engine::Submit(pipeline::StructureRequest request) {
  auto promise = std::make_shared<std::promise<pipeline::StructureResult>>();
  auto future = promise->get_future();
  Submit(std::move(request),
         [promise](pipeline::StructureResult r) { promise->set_value(std::move(r)); });
  return future;
}

pipeline::StructureResult Engine::Run(pipeline::StructureRequest request) {
  return Submit(std::move(request)).get();
}

registry::SchemaRegistry& Engine::schemas() { return *impl_->ctx->registry; }

const config::EngineConfig& Engine::config() const { return impl_->ctx->config; }

pipeline::StatsSnapshot Engine::stats() const { return impl_->stats->Snapshot(); }

std::shared_ptr<const pipeline::CallStats> Engine::call_stats() const { return impl_->stats; }

}  // namespace structure
