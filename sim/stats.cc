#include "sim/stats.h"

namespace structure::sim {
namespace {

Json MapToJson(const std::map<std::string, int64_t>& m) {
  Json o = Json::MakeObject();
  for (const auto& [k, v] : m) o.set(k, v);
  return o;
}

}  // namespace

void Stats::CountRequest(const std::string& endpoint) {
  std::lock_guard<std::mutex> lock(mu_);
  ++total_;
  ++requests_[endpoint];
}

void Stats::CountStatus(int status) {
  std::lock_guard<std::mutex> lock(mu_);
  ++responses_[std::to_string(status)];
}

void Stats::CountRateLimited() {
  std::lock_guard<std::mutex> lock(mu_);
  ++rate_limited_;
}

void Stats::CountFault(const std::string& fault) {
  std::lock_guard<std::mutex> lock(mu_);
  ++faults_[fault];
}

void Stats::CountRule(const std::string& rule) {
  std::lock_guard<std::mutex> lock(mu_);
  ++rules_[rule];
}

void Stats::CountGenerated() {
  std::lock_guard<std::mutex> lock(mu_);
  ++generated_;
}

void Stats::CountTokens(int64_t input, int64_t output) {
  std::lock_guard<std::mutex> lock(mu_);
  input_tokens_ += input;
  output_tokens_ += output;
}

void Stats::CountCacheTokens(int64_t read, int64_t written) {
  std::lock_guard<std::mutex> lock(mu_);
  cached_tokens_ += read;
  cache_write_tokens_ += written;
}

void Stats::AddInFlight(int delta) {
  std::lock_guard<std::mutex> lock(mu_);
  in_flight_ += delta;
}

void Stats::CountBatch(int64_t requests) {
  std::lock_guard<std::mutex> lock(mu_);
  ++batches_created_;
  batch_requests_ += requests;
}

void Stats::CountBatchDownload() {
  std::lock_guard<std::mutex> lock(mu_);
  ++batch_downloads_;
}

void Stats::Reset() {
  std::lock_guard<std::mutex> lock(mu_);
  requests_.clear();
  responses_.clear();
  faults_.clear();
  rules_.clear();
  total_ = rate_limited_ = generated_ = input_tokens_ = output_tokens_ = 0;
  batches_created_ = batch_requests_ = batch_downloads_ = 0;
  cached_tokens_ = cache_write_tokens_ = 0;
}

Json Stats::ToJson() const {
  std::lock_guard<std::mutex> lock(mu_);
  Json requests = MapToJson(requests_);
  requests.set("total", total_);
  Json tokens = Json::MakeObject();
  tokens.set("input", input_tokens_);
  tokens.set("output", output_tokens_);
  tokens.set("cached_input", cached_tokens_);
  tokens.set("cache_write", cache_write_tokens_);
  Json o = Json::MakeObject();
  o.set("requests", std::move(requests));
  o.set("responses", MapToJson(responses_));
  o.set("rate_limited", rate_limited_);
  o.set("faults", MapToJson(faults_));
  o.set("rules", MapToJson(rules_));
  o.set("generated", generated_);
  o.set("tokens", std::move(tokens));
  o.set("in_flight", in_flight_);
  Json batches = Json::MakeObject();
  batches.set("created", batches_created_);
  batches.set("requests", batch_requests_);
  batches.set("results_downloads", batch_downloads_);
  o.set("batches", std::move(batches));
  return o;
}

}  // namespace structure::sim
