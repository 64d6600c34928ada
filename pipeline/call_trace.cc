#include "pipeline/call_trace.h"

#include "pipeline/loop/evidence_step.h"
#include "pipeline/loop/judge.h"
#include "pipeline/result.h"
#include "pipeline/validator/validator.h"

namespace structure::pipeline {
namespace {

std::string_view FinishName(providers::FinishKind kind) {
  switch (kind) {
    case providers::FinishKind::kStop:
      return "stop";
    case providers::FinishKind::kLength:
      return "length";
    case providers::FinishKind::kRefusal:
      return "refusal";
    case providers::FinishKind::kSafety:
      return "safety";
    case providers::FinishKind::kToolUse:
      return "tool_use";
  }
  return "stop";
}

Json RoundJson(const TraceRound& r) {
  Json j = Json::MakeObject();
  j.set("iteration", r.iteration);
  if (r.nudge) j.set("nudge", true);
  if (r.part >= 0) j.set("part", r.part);
  if (!r.fields.empty()) {
    Json fields = Json::MakeArray();
    for (const std::string& f : r.fields) fields.push_back(Json(f));
    j.set("fields", std::move(fields));
  }
  j.set("model", r.model);
  j.set("mode", r.strict ? "strict" : "fallback");
  j.set("schema", *r.schema);
  j.set("system", r.system);
  j.set("answer", r.answer);
  Json calls = Json::MakeArray();
  for (const auto& c : r.tool_calls) {
    calls.push_back(Json(Json::Object{{"name", Json(c.name)}, {"arguments", Json(c.arguments)}}));
  }
  j.set("toolCalls", std::move(calls));
  j.set("finish", r.finish);
  j.set("usage", UsageToJson(r.usage));
  if (!r.error.empty()) j.set("error", r.error);
  j.set("verdict", r.verdict);
  Json issues = Json::MakeArray();
  for (const auto& i : r.issues) {
    issues.push_back(Json(Json::Object{
        {"pointer", Json(i.pointer)}, {"keyword", Json(i.keyword)}, {"message", Json(i.message)}}));
  }
  j.set("issues", std::move(issues));
  if (!r.reason.empty()) j.set("reason", r.reason);
  return j;
}

}  // namespace

void TraceSent(CallTrace* trace, const providers::ProviderCall& call, int iteration) {
  if (trace == nullptr) return;
  TraceRound r;
  r.iteration = iteration;
  r.model = call.model;
  r.strict = call.strict;
  r.schema = call.schema;
  r.system = call.system;
  trace->rounds.push_back(std::move(r));
}

void TraceReply(CallTrace* trace, const Result<providers::ProviderReply>& reply) {
  if (trace == nullptr || trace->rounds.empty()) return;
  TraceRound& r = trace->rounds.back();
  if (!reply.ok()) {
    r.error = reply.status().message();
    return;
  }
  r.answer = reply->content;
  r.tool_calls = reply->tool_calls;
  r.finish = std::string(FinishName(reply->finish));
  r.usage = reply->usage;
}

void TraceVerdict(CallTrace* trace, std::string_view verdict, std::vector<TraceIssue> issues,
                  std::string reason) {
  if (trace == nullptr || trace->rounds.empty()) return;
  TraceRound& r = trace->rounds.back();
  r.verdict = std::string(verdict);
  for (auto& i : issues) r.issues.push_back(std::move(i));
  if (!reason.empty()) r.reason = std::move(reason);
}

std::vector<TraceIssue> IssuesOf(const std::vector<ValidationError>& errors) {
  std::vector<TraceIssue> out;
  out.reserve(errors.size());
  for (const auto& e : errors) out.push_back({e.instance_path, e.keyword, e.message});
  return out;
}

std::vector<TraceIssue> IssuesOfLines(const std::vector<std::string>& lines,
                                      std::string_view keyword) {
  std::vector<TraceIssue> out;
  out.reserve(lines.size());
  for (const auto& l : lines) out.push_back({"", std::string(keyword), l});
  return out;
}

std::vector<TraceIssue> IssuesOf(const Verdict& verdict) {
  if (!verdict.failures.empty()) return IssuesOf(verdict.failures);
  return IssuesOfLines(verdict.errors, "parse");
}

std::vector<TraceIssue> IssuesOf(const EvidenceVerdict& verdict) {
  std::vector<TraceIssue> out;
  for (size_t i = 0; i < verdict.lines.size(); ++i) {
    out.push_back(
        {i < verdict.pointers.size() ? verdict.pointers[i] : "", "evidence", verdict.lines[i]});
  }
  return out;
}

Json TraceToJson(const CallTrace& trace) {
  Json rounds = Json::MakeArray();
  for (const auto& r : trace.rounds) rounds.push_back(RoundJson(r));
  Json j = Json::MakeObject();
  j.set("rounds", std::move(rounds));
  return j;
}

}  // namespace structure::pipeline
