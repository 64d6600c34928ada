#include "server/console/recent_calls.h"

#include <chrono>

#include "pipeline/call_stats.h"

namespace structure::server {
namespace {

constexpr size_t kMaxNeedBytes = 200;

Json Strings(const std::vector<std::string>& v) {
  Json a = Json::MakeArray();
  for (const auto& s : v) a.push_back(Json(s));
  return a;
}

// A cut that does not split a UTF-8 sequence.
std::string Cut(const std::string& s, size_t max) {
  if (s.size() <= max) return s;
  size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n) + "…";
}

}  // namespace

RecentCall MakeRecentCall(const pipeline::StructureRequest& request,
                          const pipeline::StructureResult& result, double seconds,
                          bool keep_prompts, Json result_json) {
  RecentCall c;
  c.tenant = request.tenant;
  c.project = request.project;
  c.schema = pipeline::SchemaLabel(request.mode, request.schema_ref, result);
  c.schema_origin = result.schema_origin;
  c.status = result.status;
  if (result.status == pipeline::Outcome::kError) c.code = ErrorCodeName(result.error_code);
  c.iterations = result.iterations;
  c.seconds = seconds;
  c.provider = result.provider;
  c.model = result.model;
  c.usage = result.usage;
  c.reasks = result.reasks;
  if (result.trace) {
    for (const auto& round : result.trace->rounds) {
      if (round.reason.empty()) continue;  // only what was re-asked
      for (const auto& i : round.issues) c.issues.push_back({i.pointer, i.keyword});
    }
  }
  if (result.status == pipeline::Outcome::kNeedMoreInput) c.need = Cut(result.need, kMaxNeedBytes);
  if (result.evidence.is_object()) {
    for (const auto& [pointer, e] : result.evidence.as_object()) c.grounded.push_back(pointer);
  }
  if (result.ungrounded.is_array()) {
    for (const auto& p : result.ungrounded.as_array()) {
      if (p.is_string()) c.ungrounded.push_back(p.as_string());
    }
  }
  if (keep_prompts) {
    c.prompt = request.prompt;
    c.kept_bytes = c.prompt.size() + ToJson(result_json).size();
    c.result = std::move(result_json);
  }
  return c;
}

RecentCalls::RecentCalls(size_t capacity, size_t max_bytes)
    : capacity_(capacity), max_bytes_(max_bytes) {}

void RecentCalls::Add(RecentCall call) {
  if (capacity_ == 0) return;
  std::lock_guard<std::mutex> lock(mu_);
  call.id = next_id_++;
  if (call.at_ms == 0) {
    call.at_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();
  }
  bytes_ += call.kept_bytes;
  calls_.push_back(std::move(call));
  while (calls_.size() > capacity_ || (bytes_ > max_bytes_ && calls_.size() > 1)) {
    bytes_ -= calls_.front().kept_bytes;
    calls_.pop_front();
  }
}

std::vector<RecentCall> RecentCalls::List(const std::function<bool(const RecentCall&)>& visible,
                                          size_t limit) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<RecentCall> out;
  for (auto it = calls_.rbegin(); it != calls_.rend() && out.size() < limit; ++it) {
    if (visible(*it)) out.push_back(*it);
  }
  return out;
}

std::optional<RecentCall> RecentCalls::Get(uint64_t id) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& c : calls_) {
    if (c.id == id) return c;
  }
  return std::nullopt;
}

Json RecentCallSummary(const RecentCall& c) {
  Json j = Json::MakeObject();
  j.set("id", static_cast<int64_t>(c.id));
  j.set("atMs", c.at_ms);
  j.set("project", c.project);
  j.set("schema", c.schema);
  j.set("schemaOrigin", c.schema_origin);
  j.set("status", std::string(pipeline::OutcomeName(c.status)));
  if (!c.code.empty()) j.set("code", c.code);
  j.set("iterations", c.iterations);
  j.set("seconds", c.seconds);
  j.set("provider", c.provider);
  j.set("model", c.model);
  j.set("usage", pipeline::UsageToJson(c.usage));
  Json reasks = Json::MakeObject();
  for (size_t i = 0; i < pipeline::kReaskReasonCount; ++i) {
    if (c.reasks[i] == 0) continue;
    reasks.set(std::string(pipeline::ReaskReasonName(static_cast<pipeline::ReaskReason>(i))),
               static_cast<int64_t>(c.reasks[i]));
  }
  j.set("reasks", std::move(reasks));
  Json issues = Json::MakeArray();
  for (const auto& i : c.issues) {
    issues.push_back(
        Json(Json::Object{{"pointer", Json(i.pointer)}, {"keyword", Json(i.keyword)}}));
  }
  j.set("issues", std::move(issues));
  if (!c.need.empty()) j.set("need", c.need);
  j.set("grounded", Strings(c.grounded));
  j.set("ungrounded", Strings(c.ungrounded));
  j.set("hasPrompt", !c.prompt.empty());
  return j;
}

}  // namespace structure::server
