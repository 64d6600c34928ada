#include "sim/simulator.h"

#include <cmath>
#include <cstring>

#include "base/hash.h"
#include "sim/answer_builder.h"
#include "sim/context_window.h"
#include "sim/grammar_budget.h"
#include "sim/rng.h"
#include "sim/schema_check.h"

namespace structure::sim {
namespace {

http::HttpResponse NotFound(const http::HttpRequest& r) {
  Json err = Json::MakeObject();
  err.set("message", "Invalid URL (" + r.method + " " + r.path + ")");
  err.set("type", "invalid_request_error");
  err.set("param", nullptr);
  err.set("code", nullptr);
  Json body = Json::MakeObject();
  body.set("error", std::move(err));
  return http::JsonResponse(404, ToJson(body));
}

int ServerErrorStatus(Provider p, Rng& rng) {
  bool overloaded = rng.Below(2) == 1;
  switch (p) {
    case Provider::kAnthropic:
      return overloaded ? 529 : 500;
    case Provider::kOpenAi:
    case Provider::kGemini:
      return overloaded ? 503 : 500;
    case Provider::kOllama:
      return 500;
  }
  return 500;
}

const char* ServerErrorMessage(int status) {
  switch (status) {
    case 503:
      return "The server is overloaded or not ready yet.";
    case 529:
      return "Overloaded";
    default:
      return "The server had an error while processing your request. Sorry about that!";
  }
}

// A hash of a Json tree's structure and values (member order included), without writing its
// text: the key of the schema-check cache.
uint64_t HashJson(const Json& v, uint64_t h) {
  auto mix = [&h](uint64_t x) { h = Fnv1a64Word(x, h); };
  mix(static_cast<uint64_t>(v.type()) + 1);
  switch (v.type()) {
    case Json::Type::kNull:
      break;
    case Json::Type::kBool:
      mix(v.as_bool() ? 1 : 0);
      break;
    case Json::Type::kInt:
      mix(static_cast<uint64_t>(v.as_int()));
      break;
    case Json::Type::kDouble: {
      double d = v.as_double();
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof(bits));
      mix(bits);
      break;
    }
    case Json::Type::kString:
      h = Fnv1a64(v.as_string(), h);
      mix(v.as_string().size());
      break;
    case Json::Type::kArray:
      for (const Json& e : v.as_array()) h = HashJson(e, h);
      mix(v.size());
      break;
    case Json::Type::kObject:
      for (const auto& [k, m] : v.as_object()) {
        h = Fnv1a64(k, h);
        mix(k.size());
        h = HashJson(m, h);
      }
      mix(v.size());
      break;
  }
  return h;
}

}  // namespace

Simulator::Simulator(SimOptions options) : options_(std::move(options)) {
  dialects_.push_back(MakeOpenAiDialect());
  dialects_.push_back(MakeAnthropicDialect());
  dialects_.push_back(MakeGeminiDialect());
  dialects_.push_back(MakeOllamaDialect());
  for (size_t i = 0; i < dialects_.size(); ++i) {
    limiters_.emplace_back(options_.scenario.rpm, options_.scenario.tpm);
  }
  batches_ = std::make_unique<SimBatches>(options_.batch, options_.seed, *this);
}

Simulator::~Simulator() = default;

uint64_t Simulator::RequestSeed(const http::HttpRequest& r) {
  uint64_t h = Fnv1a64(r.body, Fnv1a64(r.path));
  uint32_t n;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (seen_.size() > 1000000) seen_.clear();
    n = seen_[h]++;
  }
  // The repeat count makes a retried identical request draw fresh dice, deterministically.
  return MixSeed(MixSeed(options_.seed, h), n);
}

std::vector<std::string> Simulator::CheckSchema(const CheckedSchema& check) {
  // Clients send the same few schemas over and over; the check is pure, so cache it.
  uint64_t key = HashJson(*check.schema, Fnv1a64(check.profile));
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = check_cache_.find(key);
    if (it != check_cache_.end()) return it->second;
  }
  auto issues = ProviderSchemaIssues(*check.schema, check.profile);
  std::lock_guard<std::mutex> lock(mu_);
  if (check_cache_.size() > 10000) check_cache_.clear();
  check_cache_.emplace(key, issues);
  return issues;
}

Simulator::Outcome Simulator::Finish(int status, http::HttpResponse response, int delay_ms) {
  stats_.CountStatus(status);
  return Outcome{std::move(response), delay_ms};
}

Simulator::Outcome Simulator::Decide(const http::HttpRequest& r) {
  if (r.path == "/stats" && r.method == "GET") {
    Json s = stats_.ToJson();
    if (connections_) s.set("connections", static_cast<int64_t>(connections_()));
    return Outcome{http::JsonResponse(200, ToJson(s, true)), 0};
  }
  if (r.path == "/stats/reset" && r.method == "POST") {
    stats_.Reset();
    prompt_cache_.Reset();
    return Outcome{http::JsonResponse(200, "{\"reset\":true}"), 0};
  }
  if (r.path == "/health" || r.path == "/") {
    return Outcome{http::JsonResponse(200, "{\"status\":\"ok\",\"service\":\"structure sim\"}"), 0};
  }
  if (auto batch = batches_->Handle(r)) {
    stats_.CountRequest("batches");
    return Finish(batch->status, std::move(*batch), 0);
  }
  for (const auto& d : dialects_) {
    if (d->Serves(r)) {
      if (options_.request_log) options_.request_log->Append(r);
      stats_.CountRequest(std::string(ProviderName(d->provider())));
      return Serve(*d, r);
    }
  }
  stats_.CountRequest("unknown");
  return Finish(404, NotFound(r), 0);
}

std::variant<Simulator::Composed, Simulator::Outcome> Simulator::Compose(
    const Dialect& d, const http::HttpRequest& r) {
  auto parsed = d.Parse(r);
  if (!parsed.ok()) {
    int status = parsed.status().code() == Code::kNotFound ? 404 : 400;
    return Finish(status, d.Error(status, parsed.status().message()), 0);
  }
  if (parsed->rejected) {
    stats_.CountFault("parameter_rejected");
    return Finish(parsed->rejected->status, d.ParamError(*parsed->rejected), 0);
  }
  for (const auto& check : parsed->checks) {
    auto issues = CheckSchema(check);
    if (!issues.empty()) {
      stats_.CountFault("schema_rejected");
      return Finish(400, d.Error(400, d.SchemaRejection(check, issues.front())), 0);
    }
  }
  if (auto refused =
          GrammarRefusal(d, *parsed, parsed->checks, options_.scenario.grammar_budgets)) {
    stats_.CountFault("schema_too_large");
    return Finish(refused->status, std::move(*refused), 0);
  }
  if (auto refused = ContextRefusal(d, *parsed, options_.scenario.context_windows)) {
    stats_.CountFault("context_too_long");
    return Finish(refused->status, std::move(*refused), 0);
  }
  Composed c{std::move(*parsed), {}, {}, 0, Rng(RequestSeed(r))};
  const ChatRequest& req = c.request;
  c.id_seed = c.rng.Next();
  if (const Rule* rule = MatchRule(options_.scenario, req)) {
    stats_.CountRule(rule->name);
    const ScriptedReply& reply = ReplyFor(*rule, req.Attempt());
    c.answer = ScriptedAnswer(reply, req, c.rng);
    c.answer.shape = reply.shape.value_or(options_.scenario.shape);
  } else {
    stats_.CountGenerated();
    c.answer = GeneratedAnswer(req, options_.scenario.content, c.rng);
    c.answer.shape = options_.scenario.shape;
  }
  for (const auto& f : c.answer.faults) stats_.CountFault(f);
  ApplyMaxTokens(req, c.answer);
  c.usage.input_tokens = EstimateInputTokens(req);
  c.usage.output_tokens = AnswerTokens(c.answer);
  return c;
}

http::HttpResponse Simulator::AnswerBatchItem(Provider provider, const http::HttpRequest& r) {
  const Dialect& d = dialect(provider);
  auto composed = Compose(d, r);
  if (auto* done = std::get_if<Outcome>(&composed)) return std::move(done->response);
  Composed& c = std::get<Composed>(composed);
  if (c.answer.kind == Answer::Kind::kReset) {
    return d.Error(500, ServerErrorMessage(500));
  }
  if (c.answer.kind == Answer::Kind::kHttpError) {
    return d.Error(c.answer.status, c.answer.text, c.answer.error_type);
  }
  stats_.CountTokens(c.usage.input_tokens, c.usage.output_tokens);
  return d.Render(c.request, c.answer, c.usage, c.id_seed);
}

const Dialect& Simulator::dialect(Provider provider) const {
  for (const auto& d : dialects_) {
    if (d->provider() == provider) return *d;
  }
  return *dialects_.front();
}

Simulator::Outcome Simulator::Serve(const Dialect& d, const http::HttpRequest& r) {
  if (auto denied = d.CheckAuth(r, options_.scenario.keys)) {
    int status = denied->status;
    return Finish(status, std::move(*denied), 0);
  }
  auto composed = Compose(d, r);
  if (auto* done = std::get_if<Outcome>(&composed)) return std::move(*done);
  Composed& c = std::get<Composed>(composed);
  const ChatRequest& req = c.request;
  Answer& answer = c.answer;
  Usage usage = c.usage;
  Rng& rng = c.rng;
  uint64_t id_seed = c.id_seed;

  size_t index = 0;
  while (dialects_[index].get() != &d) ++index;
  LimitSnapshot limits;
  bool admitted;
  {
    std::lock_guard<std::mutex> lock(mu_);
    admitted = limiters_[index].Admit(usage.input_tokens + usage.output_tokens,
                                      RateLimiter::Clock::now(), &limits);
  }
  bool limited = limiters_[index].enabled();
  if (!admitted) {
    stats_.CountRateLimited();
    auto resp = d.RateLimited(limits, RetryHint::kRateLimitHeaders);
    resp.SetHeader("retry-after",
                   std::to_string(static_cast<int64_t>(std::ceil(limits.retry_after_s))));
    return Finish(429, std::move(resp), 0);
  }

  const TransportFaults& tf = options_.scenario.transport;
  int delay = answer.latency_ms ? *answer.latency_ms : options_.latency.Sample(rng);
  double u = rng.Uniform();
  if (u < tf.http429) {
    stats_.CountFault("http429");
    LimitSnapshot hint = limits;
    hint.retry_after_s = tf.retry_after_s;
    if (hint.requests_limit == 0) {
      hint.requests_limit = 60;
      hint.requests_reset_s = tf.retry_after_s;
    }
    return Finish(429, d.RateLimited(hint, tf.hint429), 0);
  }
  if (u < tf.http429 + tf.http5xx) {
    stats_.CountFault("http5xx");
    int status = ServerErrorStatus(d.provider(), rng);
    return Finish(status, d.Error(status, ServerErrorMessage(status)), delay);
  }
  if (u < tf.http429 + tf.http5xx + tf.reset || answer.kind == Answer::Kind::kReset) {
    if (answer.kind != Answer::Kind::kReset) stats_.CountFault("reset");
    http::HttpResponse resp;
    resp.delivery.reset = true;
    stats_.CountStatus(0);
    return Outcome{std::move(resp), delay};
  }

  http::HttpResponse resp;
  int status = 200;
  if (answer.kind == Answer::Kind::kHttpError) {
    status = answer.status;
    resp = d.Error(status, answer.text, answer.error_type);
    if (!answer.latency_ms) delay = 0;
  } else {
    // Only an answered request puts its prefix in the cache.
    CacheUsage cache = prompt_cache_.Account(req, CacheMinTokens(req.provider, req.model));
    usage.cached_input_tokens = cache.read;
    usage.cache_write_tokens = cache.written;
    resp = d.Render(req, answer, usage, id_seed);
    stats_.CountTokens(usage.input_tokens, usage.output_tokens);
    stats_.CountCacheTokens(cache.read, cache.written);
  }
  if (limited) {
    for (auto& h : d.LimitHeaders(limits, false)) resp.SetHeader(h.first, h.second);
  }
  for (const auto& h : answer.headers) resp.SetHeader(h.first, h.second);
  if (answer.slow.chunk_bytes > 0) {
    resp.delivery.chunk_bytes = answer.slow.chunk_bytes;
    resp.delivery.chunk_delay = std::chrono::milliseconds(answer.slow.delay_ms);
  } else if (tf.slow > 0 && rng.Uniform() < tf.slow) {
    stats_.CountFault("slow");
    resp.delivery.chunk_bytes = tf.slow_body.chunk_bytes;
    resp.delivery.chunk_delay = std::chrono::milliseconds(tf.slow_body.delay_ms);
  }
  return Finish(status, std::move(resp), delay);
}

void Simulator::Handle(http::HttpRequest request, http::Responder respond, const Scheduler& after) {
  Outcome o = Decide(request);
  if (o.delay_ms <= 0) {
    respond(std::move(o.response));
    return;
  }
  stats_.AddInFlight(1);
  after(std::chrono::milliseconds(o.delay_ms),
        [this, respond = std::move(respond), response = std::move(o.response)]() mutable {
          stats_.AddInFlight(-1);
          respond(std::move(response));
        });
}

}  // namespace structure::sim
