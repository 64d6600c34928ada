#include "server/console/console_api.h"

#include <charconv>
#include <cstdio>
#include <set>

#include "base/time_format.h"
#include "config/database_url.h"
#include "config/settings.h"

namespace structure::server {
namespace {

using http::ErrorResponse;
using http::HttpResponse;
using http::JsonResponse;

// Tenants with calls counted on their own; the rest share one bucket (tenant "", which no key
// has).
constexpr size_t kMaxTenants = 1000;

Json StringList(const std::vector<std::string>& v) {
  Json a = Json::MakeArray();
  for (const auto& s : v) a.push_back(Json(s));
  return a;
}

// What the model field of a request may name: the aliases and each provider's models.
Json ModelNames(const config::EngineConfig& config) {
  std::set<std::string> names;
  for (const auto& [alias, target] : config.aliases) names.insert(alias);
  for (const auto& [name, p] : config.providers) {
    if (!p.model.empty()) names.insert(name + "/" + p.model);
    for (const auto& [model, settings] : p.models) names.insert(name + "/" + model);
  }
  return StringList({names.begin(), names.end()});
}

Json PricesJson(const std::map<std::string, ModelPrice>& prices) {
  Json out = Json::MakeObject();
  for (const auto& [model, p] : prices) {
    Json j = Json::MakeObject();
    j.set("input", p.input);
    j.set("cachedInput", p.cached_input);
    j.set("cacheWrite", p.cache_write);
    j.set("output", p.output);
    out.set(model, std::move(j));
  }
  return out;
}

registry::CallRecord ToRecord(const RecentCall& call, bool keep_prompts) {
  registry::CallRecord r;
  r.at_ms = call.at_ms;
  r.tenant = call.tenant;
  r.project = call.project;
  r.schema = call.schema;
  r.evidence = !call.grounded.empty() || !call.ungrounded.empty();
  Json summary = RecentCallSummary(call);
  summary.erase("id");  // the store's id replaces the ring's
  r.summary = ToJson(summary);
  if (keep_prompts) {
    Json detail = Json::MakeObject();
    detail.set("prompt", call.prompt);
    detail.set("result", call.result);
    r.detail = ToJson(detail);
  }
  return r;
}

// A stored record as the console answers it: its summary with the store's id, plus the prompt
// and result when `with_detail` and the record has them.
Json FromRecord(const registry::CallRecord& r, bool with_detail) {
  auto parsed = ParseJson(r.summary);
  Json j = parsed.ok() && parsed->is_object() ? std::move(*parsed) : Json::MakeObject();
  j.set("id", r.id);
  if (with_detail && !r.detail.empty()) {
    auto detail = ParseJson(r.detail);
    if (detail.ok() && detail->is_object()) {
      if (const Json* p = detail->find("prompt")) j.set("prompt", *p);
      if (const Json* p = detail->find("result")) j.set("result", *p);
    }
  }
  return j;
}

}  // namespace

bool Visible(const Principal& who, const std::string& tenant, const std::string& project) {
  if (tenant != who.tenant) return false;
  return Authorize(who, project).ok();
}

Console::Console(Engine& engine, const ServerConfig& config)
    : engine_(engine),
      config_(config),
      keep_prompts_(config.console.keep_prompts),
      recent_(config.console.recent_calls, config.console.recent_bytes) {
  const std::string& database = EngineInternal::Database(engine);
  if (config.console.recent_calls == 0 || !config::IsPostgresUrl(database)) return;
  // The engine opened the same database for its registry a moment ago: a failure here is rare,
  // and the console then keeps this server's calls only.
  auto store = registry::OpenPostgresCallRecords(database);
  if (!store.ok()) {
    std::fprintf(stderr, "structure: console: %s; the console lists this server's calls only\n",
                 store.status().message().c_str());
    return;
  }
  records_ = std::move(*store);
  registry::CallRecordWriterOptions options;
  options.keep_days = config.console.records_days;
  options.keep_rows = config.console.records_rows;
  writer_ = std::make_unique<registry::CallRecordWriter>(records_, options);
}

std::string Console::Problem() const {
  if (!writer_ || !writer_->failing()) return "";
  return "call records: the database does not take them (" + std::to_string(writer_->queued()) +
         " queued, " + std::to_string(writer_->dropped()) + " dropped so far)";
}

std::string Console::RenderMetrics() const {
  if (!writer_) return "";
  std::string out;
  auto line = [&](const char* name, const char* help, const char* type, uint64_t value) {
    out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n" +
           name + " " + std::to_string(value) + "\n";
  };
  line("structure_call_records_written_total", "Call records written to the database.", "counter",
       writer_->written());
  line("structure_call_records_dropped_total",
       "Call records dropped: the queue was full while the database was slow or down.", "counter",
       writer_->dropped());
  line("structure_call_records_queued", "Call records waiting to be written.", "gauge",
       writer_->queued());
  line("structure_call_records_pruned_total", "Call records removed by retention.", "counter",
       writer_->pruned());
  return out;
}

void Console::Record(const pipeline::StructureRequest& request, const pipeline::CallResult& result,
                     double seconds) {
  RecentCall call = MakeRecentCall(request, result, seconds, keep_prompts_,
                                   keep_prompts_ ? pipeline::ResultToJson(result) : Json());
  if (writer_) {
    call.at_ms = UnixNowMs();
    writer_->Add(ToRecord(call, keep_prompts_));
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_tenant_.find(request.tenant);
    if (it == by_tenant_.end()) {
      std::string key = by_tenant_.size() < kMaxTenants ? request.tenant : "";
      it = by_tenant_.try_emplace(key, std::make_unique<pipeline::CallStats>()).first;
    }
    it->second->Record(call.schema, result, seconds);
  }
  recent_.Add(std::move(call));
}

HttpResponse Console::Handle(const http::HttpRequest& request, const Principal& who,
                             std::string_view sub) {
  if (request.method != "GET") {
    HttpResponse r = ErrorResponse(
        405, "method_not_allowed",
        request.method + " is not allowed on /v1/console/" + std::string(sub) + " (allowed: GET)");
    r.SetHeader("Allow", "GET");
    return r;
  }
  if (sub == "info") return Info(who);
  if (sub == "stats") return Stats(who);
  if (sub == "calls") return Calls(request, who);
  constexpr std::string_view kCall = "calls/";
  if (sub.substr(0, kCall.size()) == kCall) return Call(who, sub.substr(kCall.size()));
  return ErrorResponse(404, "not_found", "no such endpoint: GET /v1/console/" + std::string(sub));
}

HttpResponse Console::Info(const Principal& who) const {
  const config::EngineConfig& config = EngineInternal::Config(engine_);
  Json defaults = Json::MakeObject();
  auto settings = config::ResolveSettings(config, who.tenant, "", {});
  const config::Settings& s = settings.ok() ? *settings : config.settings;
  defaults.set("model", s.model);
  defaults.set("maxLoops", s.max_loops);
  defaults.set("evidence", std::string(config::EvidenceModeName(s.evidence)));
  Json limits = Json::MakeObject();
  limits.set("minLoops", config_.limits.min_loops);
  limits.set("maxLoops", config_.limits.max_loops);
  Json j = Json::MakeObject();
  j.set("tenant", who.tenant);
  j.set("keyName", who.key_name);
  j.set("projects", StringList(who.projects));
  j.set("keepPrompts", keep_prompts_);
  j.set("recentCalls", static_cast<int64_t>(recent_.capacity()));
  j.set("models", ModelNames(config));
  j.set("prices", PricesJson(config_.console.prices));
  j.set("defaults", std::move(defaults));
  j.set("limits", std::move(limits));
  return JsonResponse(200, ToJson(j));
}

HttpResponse Console::Stats(const Principal& who) const {
  pipeline::StatsSnapshot snapshot;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_tenant_.find(who.tenant);
    if (it != by_tenant_.end()) snapshot = it->second->Snapshot();
  }
  // The providers' latency is the whole server's (every tenant's calls): it is left out.
  snapshot.providers.clear();
  Json j = pipeline::StatsToJson(snapshot);
  j.erase("providers");
  return JsonResponse(200, ToJson(j));
}

HttpResponse Console::Calls(const http::HttpRequest& request, const Principal& who) const {
  size_t limit = recent_.capacity();
  if (auto l = request.QueryParam("limit")) {
    size_t n = 0;
    auto [end, ec] = std::from_chars(l->data(), l->data() + l->size(), n);
    if (ec != std::errc() || end != l->data() + l->size() || n == 0) {
      return ErrorResponse(400, "bad_request", "limit: must be a whole number >= 1");
    }
    limit = std::min(limit, n);
  }
  std::string schema = request.QueryParam("schema").value_or("");
  bool evidence_only = request.QueryParam("evidence").value_or("") == "1";
  if (records_) {
    auto stored = records_->List({who.tenant, who.projects, schema, evidence_only, limit});
    if (stored.ok()) {
      Json list = Json::MakeArray();
      for (const auto& r : *stored) list.push_back(FromRecord(r, false));
      Json j = Json::MakeObject();
      j.set("capacity", static_cast<int64_t>(recent_.capacity()));
      j.set("keepPrompts", keep_prompts_);
      j.set("calls", std::move(list));
      return JsonResponse(200, ToJson(j));
    }
    // The database is down: this server's own calls meanwhile.
  }
  auto calls = recent_.List(
      [&](const RecentCall& c) {
        return Visible(who, c.tenant, c.project) && (schema.empty() || c.schema == schema) &&
               (!evidence_only || !c.grounded.empty() || !c.ungrounded.empty());
      },
      limit);
  Json list = Json::MakeArray();
  for (const auto& c : calls) list.push_back(RecentCallSummary(c));
  Json j = Json::MakeObject();
  j.set("capacity", static_cast<int64_t>(recent_.capacity()));
  j.set("keepPrompts", keep_prompts_);
  j.set("calls", std::move(list));
  return JsonResponse(200, ToJson(j));
}

HttpResponse Console::Call(const Principal& who, std::string_view id_text) const {
  uint64_t id = 0;
  auto [end, ec] = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
  if (records_ && ec == std::errc() && end == id_text.data() + id_text.size()) {
    auto stored = records_->Get(static_cast<int64_t>(id));
    if (!stored.ok()) {
      return ErrorResponse(503, "unavailable", stored.status().message());
    }
    if (!stored->has_value() || !Visible(who, (*stored)->tenant, (*stored)->project)) {
      return ErrorResponse(404, "not_found", "no recent call " + std::string(id_text));
    }
    return JsonResponse(200, ToJson(FromRecord(**stored, keep_prompts_)));
  }
  auto call =
      ec == std::errc() && end == id_text.data() + id_text.size() ? recent_.Get(id) : std::nullopt;
  // Another tenant's call is answered as one that is not there.
  if (!call || !Visible(who, call->tenant, call->project)) {
    return ErrorResponse(404, "not_found",
                         "no recent call " + std::string(id_text) + " (the server keeps the last " +
                             std::to_string(recent_.capacity()) + ")");
  }
  Json j = RecentCallSummary(*call);
  if (keep_prompts_) {
    j.set("prompt", call->prompt);
    j.set("result", call->result);
  }
  return JsonResponse(200, ToJson(j));
}

}  // namespace structure::server
