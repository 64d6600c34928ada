#include "pipeline/input/merge.h"

#include <algorithm>
#include <map>
#include <optional>

#include "base/json_pointer.h"

namespace structure::pipeline {
namespace {

// One part's value at one place of the tree.
struct Src {
  size_t part;  // 0-based
  const Json* value;
  std::string pointer;  // in the part's answer
};

using EvidenceIndex = std::map<std::string, const Json*, std::less<>>;

struct Span {
  int64_t begin = 0;
  int64_t end = 0;
};

struct Ctx {
  std::vector<EvidenceIndex> evidence;  // per part
  MergedAnswer* out;
};

bool HasEvidence(const Ctx& ctx, const Src& s) { return ctx.evidence[s.part].count(s.pointer) > 0; }

// Copies the evidence of `from` (the entry at the pointer and every one below it) to `to`.
void CopyEvidence(Ctx& ctx, const Src& from, const std::string& to) {
  const EvidenceIndex& idx = ctx.evidence[from.part];
  if (idx.empty()) return;
  if (auto it = idx.find(from.pointer); it != idx.end()) ctx.out->evidence.set(to, *it->second);
  std::string prefix = from.pointer + "/";
  for (auto it = idx.lower_bound(prefix); it != idx.end() && it->first.starts_with(prefix); ++it)
    ctx.out->evidence.set(to + it->first.substr(from.pointer.size()), *it->second);
}

// The span of the evidence at and below `s`, nullopt without any.
std::optional<Span> SpanOf(const Ctx& ctx, const Src& s) {
  const EvidenceIndex& idx = ctx.evidence[s.part];
  std::optional<Span> span;
  auto add = [&](const Json& e) {
    const Json* b = e.find("byteStart");
    const Json* x = e.find("byteEnd");
    if (b == nullptr || x == nullptr || !b->is_int() || !x->is_int()) return;
    if (!span) span = Span{b->as_int(), x->as_int()};
    span->begin = std::min(span->begin, b->as_int());
    span->end = std::max(span->end, x->as_int());
  };
  if (auto it = idx.find(s.pointer); it != idx.end()) add(*it->second);
  std::string prefix = s.pointer + "/";
  for (auto it = idx.lower_bound(prefix); it != idx.end() && it->first.starts_with(prefix); ++it)
    add(*it->second);
  return span;
}

std::string Child(const std::string& pointer, std::string_view token) {
  std::string p = pointer;
  AppendPointerToken(p, token);
  return p;
}

Json Merge(Ctx& ctx, const std::vector<Src>& srcs, const std::string& out_pointer);

Json MergeObjects(Ctx& ctx, const std::vector<Src>& srcs, const std::string& out_pointer) {
  Json out = Json::MakeObject();
  std::vector<std::string> keys;  // in the order they first appear
  for (const Src& s : srcs)
    for (const auto& [k, v] : s.value->as_object())
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  for (const std::string& k : keys) {
    std::vector<Src> sub;
    for (const Src& s : srcs)
      if (const Json* v = s.value->find(k); v != nullptr && !v->is_null())
        sub.push_back({s.part, v, Child(s.pointer, k)});
    if (sub.empty()) {
      out.set(k, Json());  // every part stated null: the member stays, as null
      continue;
    }
    out.set(k, Merge(ctx, sub, Child(out_pointer, k)));
  }
  return out;
}

// How many records at the start of `cur` repeat records that `prev` (the previous, adjacent
// part) already gave for the overlap of the two.
size_t SeamDuplicates(Ctx& ctx, const Src& prev, const Src& cur) {
  const Json::Array& a = prev.value->as_array();
  const Json::Array& b = cur.value->as_array();
  std::vector<std::optional<Span>> sa, sb;
  bool spans = !a.empty() && !b.empty();
  for (size_t i = 0; spans && i < a.size(); ++i) {
    sa.push_back(SpanOf(ctx, {prev.part, &a[i], Child(prev.pointer, std::to_string(i))}));
    spans = sa.back().has_value();
  }
  for (size_t i = 0; spans && i < b.size(); ++i) {
    sb.push_back(SpanOf(ctx, {cur.part, &b[i], Child(cur.pointer, std::to_string(i))}));
    spans = sb.back().has_value();
  }
  if (spans) {
    // Records in document order: the duplicates are the first records of `cur` whose span
    // overlaps the span of a record of `prev`.
    size_t k = 0;
    while (k < b.size()) {
      bool seen = false;
      for (const auto& s : sa) seen = seen || (s->begin < sb[k]->end && sb[k]->begin < s->end);
      if (!seen) break;
      ++k;
    }
    return k;
  }
  // Without evidence: the longest run that ends `prev` and starts `cur`, deep-equal.
  for (size_t k = std::min(a.size(), b.size()); k > 0; --k) {
    bool same = true;
    for (size_t i = 0; same && i < k; ++i) same = a[a.size() - k + i] == b[i];
    if (same) return k;
  }
  return 0;
}

Json MergeArrays(Ctx& ctx, const std::vector<Src>& srcs, const std::string& out_pointer) {
  Json out = Json::MakeArray();
  const Src* prev = nullptr;
  for (const Src& s : srcs) {
    size_t skip = 0;
    if (prev != nullptr && prev->part + 1 == s.part) skip = SeamDuplicates(ctx, *prev, s);
    ctx.out->overlap_duplicates += skip;
    const Json::Array& items = s.value->as_array();
    for (size_t i = skip; i < items.size(); ++i) {
      std::string at = Child(out_pointer, std::to_string(out.size()));
      CopyEvidence(ctx, {s.part, &items[i], Child(s.pointer, std::to_string(i))}, at);
      out.push_back(items[i]);
    }
    prev = &s;
  }
  return out;
}

Json MergeScalars(Ctx& ctx, const std::vector<Src>& srcs, const std::string& out_pointer) {
  MergeConflict c;
  c.pointer = out_pointer;
  std::vector<size_t> first;  // per distinct value, its first source
  for (size_t i = 0; i < srcs.size(); ++i) {
    size_t v = 0;
    while (v < c.values.size() && !(c.values[v] == *srcs[i].value)) ++v;
    if (v == c.values.size()) {
      c.values.push_back(*srcs[i].value);
      c.parts.emplace_back();
      first.push_back(i);
    }
    if (c.parts[v].empty() || c.parts[v].back() != srcs[i].part + 1)
      c.parts[v].push_back(srcs[i].part + 1);
  }
  // The value taken: the first one stated with evidence, else the first one stated.
  size_t take = 0;
  for (size_t i = 0; i < srcs.size(); ++i) {
    if (HasEvidence(ctx, srcs[i])) {
      take = i;
      break;
    }
  }
  CopyEvidence(ctx, srcs[take], out_pointer);
  Json value = *srcs[take].value;
  if (c.values.size() > 1) ctx.out->conflicts.push_back(std::move(c));
  return value;
}

Json Merge(Ctx& ctx, const std::vector<Src>& srcs, const std::string& out_pointer) {
  bool objects = true, arrays = true;
  for (const Src& s : srcs) {
    objects = objects && s.value->is_object();
    arrays = arrays && s.value->is_array();
  }
  if (objects) return MergeObjects(ctx, srcs, out_pointer);
  if (arrays) return MergeArrays(ctx, srcs, out_pointer);
  return MergeScalars(ctx, srcs, out_pointer);
}

}  // namespace

MergedAnswer MergeParts(const std::vector<PartAnswer>& parts) {
  MergedAnswer out;
  Ctx ctx;
  ctx.out = &out;
  bool any_evidence = false;
  std::vector<Src> srcs;
  for (size_t i = 0; i < parts.size(); ++i) {
    EvidenceIndex idx;
    if (parts[i].evidence.is_object()) {
      for (const auto& [k, v] : parts[i].evidence.as_object()) idx.emplace(k, &v);
      any_evidence = true;
    }
    ctx.evidence.push_back(std::move(idx));
    if (!parts[i].data.is_null()) srcs.push_back({i, &parts[i].data, ""});
  }
  if (any_evidence) out.evidence = Json::MakeObject();
  if (!srcs.empty()) out.data = Merge(ctx, srcs, "");
  return out;
}

Json ConflictsToJson(const std::vector<MergeConflict>& conflicts) {
  Json out = Json::MakeArray();
  for (const MergeConflict& c : conflicts) {
    Json row = Json::MakeObject();
    row.set("pointer", c.pointer);
    Json values = Json::MakeArray();
    for (const Json& v : c.values) values.push_back(v);
    row.set("values", std::move(values));
    Json parts = Json::MakeArray();
    for (const auto& p : c.parts) {
      Json list = Json::MakeArray();
      for (size_t n : p) list.push_back(static_cast<int64_t>(n));
      parts.push_back(std::move(list));
    }
    row.set("parts", std::move(parts));
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace structure::pipeline
