#include "pipeline/loop/evidence_step.h"

#include <cstdlib>
#include <optional>

#include "base/json_pointer.h"
#include "pipeline/evidence/check.h"
#include "pipeline/evidence/form.h"
#include "pipeline/generate/schema_ref.h"
#include "pipeline/loop/file_evidence.h"

namespace structure::pipeline {
namespace {

// Removes the value at `pointer` (not the root) from `root`; false when it is not there.
bool RemoveAt(Json& root, const std::string& pointer) {
  size_t slash = pointer.rfind('/');
  if (pointer.empty() || slash == std::string::npos) return false;
  Json* parent =
      const_cast<Json*>(ResolvePointer(root, std::string_view(pointer).substr(0, slash)));
  if (parent == nullptr) return false;
  std::optional<std::string> escaped =
      UnescapePointerToken(std::string_view(pointer).substr(slash + 1));
  if (!escaped) return false;
  const std::string& token = *escaped;
  if (parent->is_object()) return parent->erase(token);
  if (!parent->is_array()) return false;
  char* end = nullptr;
  unsigned long idx = std::strtoul(token.c_str(), &end, 10);
  if (token.empty() || *end != '\0' || idx >= parent->size()) return false;
  auto& a = parent->as_array();
  a.erase(a.begin() + static_cast<std::ptrdiff_t>(idx));
  return true;
}

std::string NeedText(const std::vector<evidence::Ungrounded>& required) {
  std::string s = "the input does not state ";
  for (size_t i = 0; i < required.size(); ++i) {
    const evidence::Ungrounded& u = required[i];
    if (i > 0) s += "; ";
    s += (u.pointer.empty() ? std::string("the answer") : u.pointer) + " (";
    s += u.quote.empty() ? u.why : "quoted " + ToJson(Json(u.quote)) + ", " + u.why;
    s += ")";
  }
  return s;
}

}  // namespace

std::string BuildEvidenceReason(const std::vector<std::string>& lines, size_t max_lines) {
  std::string s = "These values of the previous output are not supported by the input:\n";
  for (size_t i = 0; i < lines.size() && i < max_lines; ++i) s += lines[i] + "\n";
  if (lines.size() > max_lines)
    s += "- ... and " + std::to_string(lines.size() - max_lines) + " more\n";
  s += "\nFor each value, quote verbatim the shortest passage of the input that states it, or "
       "leave out a value the input does not state. Do not change supported values.";
  return s;
}

std::string BuildMissingListReason() {
  return std::string("The previous output gave the answer without its \"") +
         evidence::kEvidenceKey +
         "\" list. Send the same answer again, unchanged, with the list: for each value of the "
         "answer, its JSON pointer as \"path\" and, as \"quote\", the shortest passage of the "
         "input that states it, copied verbatim. Leave out a value the input does not state.";
}

EvidenceVerdict JudgeEvidence(const LoopPlan& plan, std::string_view prompt, Json data,
                              const Json& claims, bool may_reask, bool list_missing,
                              const PreparedFiles* files) {
  EvidenceVerdict v;
  if (list_missing && may_reask && plan.evidence == config::EvidenceMode::kRequire) {
    v.kind = EvidenceVerdict::Kind::kReask;
    v.lines.push_back(kMissingListError);
    v.reason = BuildMissingListReason();
    return v;
  }
  EvidenceText text;
  if (files != nullptr) {
    text = MakeEvidenceText(prompt, *files);
    prompt = text.text;
  }
  evidence::EvidenceReport report =
      evidence::CheckEvidence(data, plan.answer_schema, prompt, evidence::ReadClaims(claims));
  // A quote found nowhere may come from an image or a scan the model read: unchecked, neither
  // grounded nor re-asked.
  std::vector<evidence::Ungrounded> unchecked;
  if (files != nullptr && (!files->images.empty() || !files->scans.empty())) {
    std::erase_if(report.ungrounded, [&](evidence::Ungrounded& u) {
      if (!u.not_found) return false;
      unchecked.push_back(std::move(u));
      return true;
    });
  }
  if (plan.evidence == config::EvidenceMode::kRequire && !report.ungrounded.empty()) {
    if (may_reask) {
      v.kind = EvidenceVerdict::Kind::kReask;
      for (const auto& u : report.ungrounded) {
        v.lines.push_back(evidence::ReasonLine(u));
        v.pointers.push_back(u.pointer);
      }
      v.reason = BuildEvidenceReason(v.lines);
      return v;
    }
    // The last round: drop what the schema lets go (in reverse document order, so array
    // indexes of earlier leaves stay right); what it needs is missing input.
    std::vector<evidence::Ungrounded> required;
    for (auto it = report.ungrounded.rbegin(); it != report.ungrounded.rend(); ++it) {
      Json without = data;
      if (RemoveAt(without, it->pointer) && plan.validator->Validate(without, false).valid) {
        data = std::move(without);
      } else {
        required.insert(required.begin(), *it);
      }
    }
    if (!required.empty()) {
      v.kind = EvidenceVerdict::Kind::kNeed;
      v.need = NeedText(required);
    }
  }
  v.evidence = evidence::EvidenceJson(report);
  if (files != nullptr) {
    PlaceOnPages(v.evidence, text);
    for (const evidence::Ungrounded& u : unchecked)
      v.evidence.set(u.pointer, UncheckedEntry(u.quote, *files));
  }
  v.ungrounded = evidence::UngroundedJson(report);
  v.data = std::move(data);
  return v;
}

}  // namespace structure::pipeline
