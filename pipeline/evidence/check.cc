#include "pipeline/evidence/check.h"

#include <optional>
#include <unordered_map>

#include "pipeline/evidence/date_match.h"
#include "pipeline/evidence/leaves.h"
#include "pipeline/evidence/normalize.h"

namespace structure::pipeline::evidence {
namespace {

constexpr size_t kMaxShown = 80;  // bytes of a value or quote shown in a reason line

// At most kMaxShown bytes, cut at a code point boundary.
std::string Shorten(std::string_view s) {
  if (s.size() <= kMaxShown) return std::string(s);
  size_t n = kMaxShown;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return std::string(s.substr(0, n)) + "...";
}

std::string Quoted(std::string_view s) { return ToJson(Json(Shorten(s))); }

}  // namespace

std::vector<Claim> ReadClaims(const Json& evidence) {
  std::vector<Claim> out;
  if (!evidence.is_array()) return out;
  for (const Json& e : evidence.as_array()) {
    const Json* path = e.find("path");
    const Json* quote = e.find("quote");
    if (path == nullptr || quote == nullptr || !path->is_string() || !quote->is_string()) continue;
    out.push_back(Claim{path->as_string(), quote->as_string()});
  }
  return out;
}

EvidenceReport CheckEvidence(const Json& data, const Json& schema, std::string_view prompt,
                             const std::vector<Claim>& claims) {
  EvidenceReport report;
  std::unordered_map<std::string, const Claim*> by_path;
  for (const Claim& c : claims) by_path.emplace(c.path, &c);  // the first claim of a path wins
  PromptIndex index(prompt);
  std::optional<DateContext> dates;
  auto context = [&]() -> const DateContext& {
    if (!dates) dates = ReadDateContext(index.normalized().text);
    return *dates;
  };
  for (const Leaf& leaf : CollectLeaves(data, schema)) {
    auto it = by_path.find(leaf.pointer);
    Ungrounded u{leaf.pointer, ToJson(*leaf.value), "", ""};
    if (it == by_path.end() || it->second->quote.empty()) {
      u.why = "no quote was given";
      report.ungrounded.push_back(std::move(u));
      continue;
    }
    const std::string& quote = it->second->quote;
    u.quote = quote;
    std::optional<Span> span = index.Locate(quote);
    if (!span) {
      u.why = "not found in the text";
      u.not_found = true;
      report.ungrounded.push_back(std::move(u));
      continue;
    }
    std::string why = CheckValue(*leaf.value, leaf.kind, NormalizeString(quote), context);
    if (!why.empty()) {
      u.why = std::move(why);
      report.ungrounded.push_back(std::move(u));
      continue;
    }
    report.grounded.push_back(Grounded{leaf.pointer, quote, *span, leaf.kind});
  }
  return report;
}

std::string ReasonLine(const Ungrounded& u) {
  std::string line = "- " + (u.pointer.empty() ? std::string("(root)") : u.pointer) + ": " +
                     Shorten(u.value) + " is not supported by the input (";
  if (u.quote.empty()) {
    line += u.why;
  } else {
    line += "quoted " + Quoted(u.quote) + ", " + u.why;
  }
  return line + ")";
}

Json EvidenceJson(const EvidenceReport& report) {
  Json out = Json::MakeObject();
  for (const Grounded& g : report.grounded) {
    Json e = Json::MakeObject();
    e.set("quote", Json(g.quote));
    e.set("byteStart", Json(static_cast<int64_t>(g.span.byte_begin)));
    e.set("byteEnd", Json(static_cast<int64_t>(g.span.byte_end)));
    e.set("cpStart", Json(static_cast<int64_t>(g.span.cp_begin)));
    e.set("cpEnd", Json(static_cast<int64_t>(g.span.cp_end)));
    e.set("match", Json(MatchKindName(g.span.kind)));
    e.set("kind", Json(LeafKindName(g.kind)));
    out.set(g.pointer, std::move(e));
  }
  return out;
}

Json UngroundedJson(const EvidenceReport& report) {
  Json out = Json::MakeArray();
  for (const Ungrounded& u : report.ungrounded) out.push_back(Json(u.pointer));
  return out;
}

}  // namespace structure::pipeline::evidence
