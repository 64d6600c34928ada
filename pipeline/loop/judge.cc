#include "pipeline/loop/judge.h"

#include "pipeline/evidence/form.h"
#include "pipeline/loop/array_answer.h"
#include "pipeline/loop/extract_json.h"
#include "pipeline/loop/reason.h"

namespace structure::pipeline {
namespace {

Verdict Rejected(std::vector<std::string> lines) {
  Verdict v;
  v.why = ReasonBit(ReaskReason::kParse);
  v.reason = BuildReasonFromLines(lines);
  v.errors = std::move(lines);
  return v;
}

// Default need detection: {"_need": "..."} with no other non-null member.
std::optional<std::string> DefaultDetectNeed(const Json& v) {
  if (!v.is_object()) return std::nullopt;
  const Json* need = v.find("_need");
  if (need == nullptr || !need->is_string()) return std::nullopt;
  for (const auto& [k, m] : v.as_object()) {
    if (k != "_need" && !m.is_null()) return std::nullopt;
  }
  return need->as_string();
}

Verdict Validate(const LoopPlan& plan, Json data) {
  ValidationResult vr = plan.validator->Validate(data, true);
  if (!vr.valid) {
    Verdict v;
    v.reason = BuildReason(vr.errors);
    v.errors = ErrorMessages(vr.errors);
    v.why = ReaskReasonsOf(vr.errors);
    v.failures = std::move(vr.errors);
    return v;
  }
  Verdict v;
  v.kind = Verdict::Kind::kValid;
  v.data = std::move(data);
  return v;
}

}  // namespace

Verdict JudgeCandidate(const LoopPlan& plan, const Candidate& c) {
  if (c.truncated) {
    if (plan.array_mode) {
      // The complete records of a cut-off answer: JSON Lines, or the elements of an array.
      Verdict v;
      if (auto lines = ParseJsonLines(c.text, true)) {
        v = Validate(plan, std::move(*lines));
      } else if (auto records = RecoverArrayPrefix(c.text); records.ok() && records->size() > 0) {
        v = Validate(plan, std::move(*records));
      } else {
        return Rejected(
            {"(root): the answer was cut off at the token limit; answer more concisely"});
      }
      v.truncated = true;
      return v;
    }
    return Rejected({"(root): the answer was cut off at the token limit; answer more concisely"});
  }
  Json parsed;
  bool extracted = false;  // strict output that needed the tolerant parser
  auto strict =
      c.strict_parse || plan.array_mode ? ParseStrict(c.text) : Result<Json>(InvalidArgument(""));
  std::optional<Json> lines;
  if (!strict.ok() && plan.array_mode) lines = ParseJsonLines(c.text, false);
  if (strict.ok()) {
    parsed = std::move(*strict);
  } else if (lines) {
    // JSON Lines: the records are the answer in the original shape (one may be the need form).
    if (lines->size() == 1) {
      auto need = plan.detect_need ? plan.detect_need(lines->as_array()[0])
                                   : DefaultDetectNeed(lines->as_array()[0]);
      if (need) {
        Verdict v;
        v.kind = Verdict::Kind::kNeed;
        v.need = std::move(*need);
        return v;
      }
    }
    return Validate(plan, std::move(*lines));
  } else {
    // Strict output that does not parse is rare (a provider bug, or a server that ignored the
    // form): the tolerant parser may still find it, and the result then says the form was not
    // kept (formIgnored). A reason is sent otherwise.
    auto e = ExtractJson(c.text);
    if (!e.ok()) return Rejected({"(root): the answer is not valid JSON: " + e.status().message()});
    parsed = std::move(e->value);
    extracted = c.strict_parse;
  }
  std::optional<std::string> need =
      plan.detect_need ? plan.detect_need(parsed)
                       : (parsed.is_object() ? DefaultDetectNeed(parsed) : std::nullopt);
  if (need) {
    Verdict v;
    v.kind = Verdict::Kind::kNeed;
    v.need = std::move(*need);
    return v;
  }
  bool evidence_form =
      plan.evidence != config::EvidenceMode::kOff && parsed.is_object() &&
      (parsed.contains(evidence::kEvidenceKey) || parsed.contains(evidence::kAnswerKey));
  if (plan.array_mode && !plan.strict && parsed.is_object() && !evidence_form) {
    parsed = Json(Json::Array{std::move(parsed)});  // JSON Lines with a single record
  }
  bool form_ignored = extracted;
  if (plan.lift) {
    auto lifted = plan.lift(parsed);
    if (lifted.ok()) {
      parsed = std::move(*lifted);
    } else if (lifted.status().code() == Code::kNotFound) {
      // Self-hosted servers often ignore the form they were given; the answer may still be one
      // of the user's schema, and when it is not, its errors are what the user must read.
      form_ignored = true;
    } else {
      return Rejected({lifted.status().message()});
    }
  }
  Json claims;
  bool list_missing = false;
  if (plan.evidence != config::EvidenceMode::kOff) {
    // The answer is split out of the evidence form; an answer that skipped the form has none.
    // The form's names never reach the user's errors: {"answer": ...} alone is the answer
    // without its list, unless the user's schema takes the object as it is.
    bool whole_is_answer = parsed.is_object() && parsed.contains(evidence::kAnswerKey) &&
                           plan.validator->Validate(parsed, false).valid;
    evidence::SplitAnswer split = evidence::SplitEvidence(std::move(parsed), whole_is_answer);
    parsed = std::move(split.answer);
    claims = std::move(split.evidence);
    list_missing = split.list_missing;
  }
  Verdict v = Validate(plan, std::move(parsed));
  v.form_ignored = form_ignored;
  v.evidence = std::move(claims);
  v.evidence_list_missing = list_missing;
  return v;
}

}  // namespace structure::pipeline
