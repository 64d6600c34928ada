#include "pipeline/lowering/split_plan.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "pipeline/lowering/need_channel.h"

namespace structure::pipeline {
namespace {

const SizeLimit kAllLimits[] = {
    SizeLimit::kDepth,    SizeLimit::kProperties, SizeLimit::kEnumValues, SizeLimit::kStringBudget,
    SizeLimit::kOptional, SizeLimit::kUnions,     SizeLimit::kGrammar,    SizeLimit::kFields};

// Real lowerings tried per part count when the estimate says a field does not fit.
constexpr int kExactChecksPerRound = 24;

// What a set of fields weighs: their own measures plus the definitions they use, each once.
struct Load {
  SchemaMeasures own;
  std::map<std::string, SchemaMeasures> defs;

  void Add(const Load& other) {
    own = Sum(own, other.own);
    for (const auto& [name, m] : other.defs) defs.emplace(name, m);
  }
  SchemaMeasures Total() const {
    SchemaMeasures t = own;
    for (const auto& [name, m] : defs) t = Sum(t, m);
    return t;
  }
};

// The measures of what a part sends, split into its own and each definition's.
Load Weigh(const Json& sent) {
  Load load;
  Json body = sent;
  if (const Json* defs = sent.find("$defs"); defs && defs->is_object()) {
    for (const auto& [name, def] : defs->as_object()) {
      SchemaMeasures m = MeasureSchema(def);
      m.depth = 0;  // the depth is counted where the definition is used
      m.budget += name.size();
      load.defs.emplace(name, m);
    }
    body.erase("$defs");
  }
  load.own = MeasureSchema(body);
  load.own.depth = MeasureSchema(sent).depth;
  return load;
}

class Planner {
 public:
  Planner(const Json& schema, const Profile& profile, const LimitHit& forced)
      : schemas_(schema), profile_(profile), binding_(forced.limit) {}

  SplitPlan Run(const LimitHit& forced) {
    SplitPlan plan;
    plan.forced_by = forced;
    if (!schemas_.why_not().empty()) return Failed(plan, schemas_.why_not());
    if (profile_.max_split_parts < 2) return Failed(plan, "max_split_parts is below 2");
    if (!Overhead(plan)) return plan;
    if (!Expand(plan)) return plan;
    Group();
    size_t capacity = Bound(binding_) > MeasureOf(overhead_, binding_)
                          ? Bound(binding_) - MeasureOf(overhead_, binding_)
                          : 0;
    if (binding_ == SizeLimit::kOptional) capacity += Bound(SizeLimit::kUnions);
    Load all;
    for (const Item& it : items_) all.Add(it.load);
    size_t total = MeasureOf(all.Total(), binding_);
    size_t k = capacity ? std::max<size_t>(2, (total + capacity - 1) / capacity) : 2;
    std::string last_failure;
    for (; k <= profile_.max_split_parts; ++k) {
      std::vector<std::vector<size_t>> bins;
      if (PackInOrder(k, bins) && Verify(bins, plan, last_failure)) return plan;
      if (Pack(k, bins) && Verify(bins, plan, last_failure)) return plan;
    }
    return Failed(plan, last_failure.empty()
                            ? "it needs more than " + std::to_string(profile_.max_split_parts) +
                                  " parts (max_split_parts)"
                            : last_failure);
  }

 private:
  struct Unit {
    std::string pointer;
    Load load;  // own measures beyond an empty part's, and the definitions used
  };
  struct Item {
    std::vector<size_t> units;  // indexes into units_, in document order
    Load load;
  };

  static SplitPlan Failed(SplitPlan& plan, std::string why) {
    plan.parts.clear();
    plan.cross.clear();
    plan.failure = std::move(why);
    return plan;
  }

  // max_fields_per_call counts the user's fields: a part's measures also hold the need
  // channel's (in overhead_).
  size_t Bound(SizeLimit l) const {
    if (l != SizeLimit::kFields) return BoundOf(profile_, l);
    return profile_.max_fields_per_call ? profile_.max_fields_per_call + overhead_.fields : 0;
  }

  bool Within(const SchemaMeasures& m) const {
    SchemaMeasures t = m;
    // Lower makes the optional properties past the limit required + nullable: unions.
    size_t optional = Bound(SizeLimit::kOptional), unions = Bound(SizeLimit::kUnions);
    if (optional && unions && t.optional > optional) {
      t.unions += t.optional - optional;
      t.optional = optional;
    }
    for (SizeLimit l : kAllLimits)
      if (Bound(l) && MeasureOf(t, l) > Bound(l)) return false;
    return true;
  }

  SchemaMeasures Estimate(const Load& load) const { return Sum(overhead_, load.Total()); }

  // The part holding `pointers`, lowered: strict and within every limit, or false.
  bool LowerPart(const std::vector<std::string>& pointers, SplitPart& part, std::string* why) {
    part.pointers = pointers;
    part.as_text.clear();
    for (const std::string& p : pointers)
      if (as_text_.count(p)) part.as_text.push_back(p);
    part.schema = schemas_.Build(pointers, part.as_text);
    Result<Lowered> l = Lower(part.schema, profile_);
    if (!l.ok() || !l->strict) {
      if (why) *why = l.ok() ? l->reason : l.status().message();
      return false;
    }
    part.lowered = std::move(*l);
    ScopeNeed(part.lowered, profile_, pointers);
    part.measures = MeasureSchema(part.lowered.need.schema);
    if (!Within(part.measures)) {
      if (why) {
        LimitHit hit = FirstExceeded(part.measures, profile_);
        *why = hit.limit != SizeLimit::kNone
                   ? hit.text
                   : "field count " + std::to_string(part.measures.fields) +
                         " exceeds max_fields_per_call";
      }
      return false;
    }
    return true;
  }

  // The measures of a part that holds one trivial field, less that field.
  bool Overhead(SplitPlan& plan) {
    Json one = Json::MakeObject();
    one.set("type", Json("object"));
    one.set("properties", Json(Json::Object{{"x", Json(Json::Object{{"type", Json("string")}})}}));
    one.set("required", Json(Json::Array{Json("x")}));
    one.set("additionalProperties", Json(false));
    Result<Lowered> l = Lower(one, profile_);
    if (!l.ok() || !l->strict) {
      Failed(plan, "the profile takes no object schema");
      return false;
    }
    SchemaMeasures field;
    field.properties = field.fields = field.budget = field.grammar = 1;
    overhead_ = Difference(MeasureSchema(l->need.schema), field);
    return true;
  }

  // The fields, each alone within the limits: a field too big alone is replaced by its own.
  bool Expand(SplitPlan& plan) {
    std::vector<std::string> work = schemas_.Fields("");
    std::reverse(work.begin(), work.end());
    while (!work.empty()) {
      std::string p = work.back();
      work.pop_back();
      SplitPart part;
      std::string why;
      if (LowerPart({p}, part, &why)) {
        Load load = Weigh(part.lowered.need.schema);
        load.own = Difference(load.own, overhead_);
        units_.push_back({p, std::move(load)});
        continue;
      }
      std::vector<std::string> below = schemas_.Fields(p);
      if (below.empty() && !as_text_.count(p)) {
        as_text_.insert(p);  // the last resort: the field as JSON text
        work.push_back(p);
        continue;
      }
      if (below.empty()) {
        Failed(plan, "field " + p + " alone does not fit: " + why);
        return false;
      }
      for (auto it = below.rbegin(); it != below.rend(); ++it) work.push_back(*it);
    }
    return true;
  }

  // Fields one constraint reads go together when they fit in one part.
  void Group() {
    std::vector<size_t> group(units_.size());
    std::iota(group.begin(), group.end(), 0);
    auto find = [&](size_t i) {
      while (group[i] != i) i = group[i] = group[group[i]];
      return i;
    };
    std::vector<std::string> pointers;
    for (const Unit& u : units_) pointers.push_back(u.pointer);
    for (const FieldConstraint& c : schemas_.Constraints(pointers)) {
      if (c.spans_object) continue;  // its fields together would not settle it
      std::vector<size_t> roots;
      for (size_t i = 0; i < units_.size(); ++i)
        for (const std::string& p : c.pointers)
          if (PointerWithin(units_[i].pointer, p) || PointerWithin(p, units_[i].pointer)) {
            if (std::find(roots.begin(), roots.end(), find(i)) == roots.end())
              roots.push_back(find(i));
            break;
          }
      if (roots.size() < 2) continue;
      Load joined;
      for (size_t i = 0; i < units_.size(); ++i)
        if (std::find(roots.begin(), roots.end(), find(i)) != roots.end())
          joined.Add(units_[i].load);
      if (!Within(Estimate(joined))) continue;
      for (size_t r : roots) group[r] = roots[0];
    }
    std::map<size_t, size_t> index;
    for (size_t i = 0; i < units_.size(); ++i) {
      auto [it, fresh] = index.emplace(find(i), items_.size());
      if (fresh) items_.push_back({});
      items_[it->second].units.push_back(i);
      items_[it->second].load.Add(units_[i].load);
    }
  }

  std::vector<std::string> PointersOf(const std::vector<size_t>& item_ids) const {
    std::vector<size_t> ids;
    for (size_t i : item_ids) ids.insert(ids.end(), items_[i].units.begin(), items_[i].units.end());
    std::sort(ids.begin(), ids.end());
    std::vector<std::string> out;
    for (size_t i : ids) out.push_back(units_[i].pointer);
    return out;
  }

  // Neighbours together: the fields in document order cut into at most k runs, the heaviest
  // run as light as it can be (a search on its bound), each within every limit by the
  // estimate. Related fields (a section) stay in one call.
  bool PackInOrder(size_t k, std::vector<std::vector<size_t>>& bins) {
    std::vector<size_t> order(items_.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return items_[a].units.front() < items_[b].units.front();
    });
    auto cut = [&](size_t bound, std::vector<std::vector<size_t>>& out) {
      out.clear();
      Load load;
      for (size_t item : order) {
        Load trial = load;
        trial.Add(items_[item].load);
        if (!out.empty() && Within(Estimate(trial)) &&
            MeasureOf(trial.Total(), binding_) <= bound) {
          out.back().push_back(item);
          load = std::move(trial);
          continue;
        }
        if (!Within(Estimate(items_[item].load))) return false;
        out.push_back({item});
        load = items_[item].load;
      }
      return true;
    };
    size_t lo = 0, hi = 0;
    for (const Item& it : items_) {
      size_t w = MeasureOf(it.load.Total(), binding_);
      lo = std::max(lo, w);
      hi += w;
    }
    std::vector<std::vector<size_t>> best;
    while (lo <= hi) {
      size_t mid = lo + (hi - lo) / 2;
      std::vector<std::vector<size_t>> trial;
      bool fits = cut(mid, trial) && trial.size() <= k;
      if (fits) best = std::move(trial);
      if (fits && mid == 0) break;
      if (fits) {
        hi = mid - 1;
      } else {
        lo = mid + 1;
      }
    }
    bins = std::move(best);
    return bins.size() >= 2;
  }

  // Heaviest first into the least loaded part that takes it, by the estimate (which counts
  // what a definition weighs once per part, and so never underestimates by much) or, when the
  // estimate says no, by a real lowering.
  bool Pack(size_t k, std::vector<std::vector<size_t>>& bins) {
    std::vector<size_t> order(items_.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return MeasureOf(items_[a].load.Total(), binding_) >
             MeasureOf(items_[b].load.Total(), binding_);
    });
    bins.assign(k, {});
    std::vector<Load> load(k);
    int exact = kExactChecksPerRound;
    for (size_t item : order) {
      std::vector<size_t> by_load(k);
      std::iota(by_load.begin(), by_load.end(), 0);
      // The least loaded by the binding limit; on a tie, by grammar size, then field count.
      std::vector<SchemaMeasures> total(k);
      for (size_t b = 0; b < k; ++b) total[b] = load[b].Total();
      std::stable_sort(by_load.begin(), by_load.end(), [&](size_t a, size_t b) {
        auto key = [&](size_t i) {
          return std::make_tuple(MeasureOf(total[i], binding_), total[i].grammar, bins[i].size());
        };
        return key(a) < key(b);
      });
      bool placed = false;
      for (size_t b : by_load) {
        Load trial = load[b];
        trial.Add(items_[item].load);
        if (!Within(Estimate(trial))) continue;
        bins[b].push_back(item);
        load[b] = std::move(trial);
        placed = true;
        break;
      }
      for (size_t j = 0; !placed && j < by_load.size() && exact > 0; ++j, --exact) {
        size_t b = by_load[j];
        std::vector<size_t> trial = bins[b];
        trial.push_back(item);
        SplitPart part;
        if (!LowerPart(PointersOf(trial), part, nullptr)) continue;
        bins[b] = std::move(trial);
        load[b].Add(items_[item].load);
        placed = true;
      }
      if (!placed) return false;
    }
    bins.erase(std::remove_if(bins.begin(), bins.end(), [](const auto& b) { return b.empty(); }),
               bins.end());
    return bins.size() >= 2;
  }

  bool Verify(const std::vector<std::vector<size_t>>& bins, SplitPlan& plan, std::string& why) {
    std::vector<SplitPart> parts;
    for (const auto& bin : bins) {
      SplitPart part;
      if (!LowerPart(PointersOf(bin), part, &why)) return false;
      parts.push_back(std::move(part));
    }
    std::sort(parts.begin(), parts.end(), [&](const SplitPart& a, const SplitPart& b) {
      return Index(a.pointers.front()) < Index(b.pointers.front());
    });
    std::vector<std::vector<std::string>> groups;
    for (const SplitPart& p : parts) groups.push_back(p.pointers);
    std::vector<CrossConstraint> cross;
    for (FieldConstraint& c : schemas_.CrossConstraints(groups)) {
      // A constraint of a list's items that spans its columns cannot be re-asked column-wise.
      if (c.object.find("/" + std::string(kEachItem)) != std::string::npos) {
        why = "a constraint of the items of a list (" + c.keyword + " at " + c.object +
              ") reads columns of several parts";
        return false;
      }
      CrossConstraint x{std::move(c), Json()};
      x.schema = schemas_.Build(x.constraint.pointers);
      RequirePath(x.schema, x.constraint.object);
      cross.push_back(std::move(x));
    }
    plan.parts = std::move(parts);
    plan.cross = std::move(cross);
    plan.failure.clear();
    return true;
  }

  size_t Index(const std::string& pointer) const {
    for (size_t i = 0; i < units_.size(); ++i)
      if (units_[i].pointer == pointer) return i;
    return units_.size();
  }

  // A re-ask about an object's fields must give the object: the objects on the way to it
  // become required.
  static void RequirePath(Json& schema, const std::string& object) {
    Json* node = &schema;
    for (const std::string& t : PointerTokens(object)) {
      Json* props = node->find("properties");
      Json* sub = props ? props->find(t) : nullptr;
      if (!sub) return;
      Json* req = node->find("required");
      if (!req || !req->is_array()) req = &node->set("required", Json::MakeArray());
      bool listed = false;
      for (const Json& x : req->as_array())
        listed = listed || (x.is_string() && x.as_string() == t);
      if (!listed) req->push_back(Json(t));
      node = sub;
    }
  }

  PartSchemas schemas_;
  const Profile& profile_;
  SizeLimit binding_;
  SchemaMeasures overhead_;
  std::vector<Unit> units_;
  std::vector<Item> items_;
  std::set<std::string> as_text_;  // fields that travel as JSON text
};

}  // namespace

std::string PartNeedDescription(const std::vector<std::string>& pointers) {
  constexpr size_t kNamed = 12;
  std::string list;
  for (size_t i = 0; i < pointers.size() && i < kNamed; ++i) list += (i ? ", " : "") + pointers[i];
  if (pointers.size() > kNamed)
    list += " and " + std::to_string(pointers.size() - kNamed) + " more";
  return "Only when a required field among " + list +
         " has no support in the input: what is missing, in one sentence. Never invent values.";
}

SplitPlan PlanSplit(const Json& schema, const Profile& profile, const LimitHit& forced_by) {
  return Planner(schema, profile, forced_by).Run(forced_by);
}

std::optional<LimitHit> SplitTrigger(const Lowered& whole, const Profile& profile) {
  if (whole.strict) {
    size_t fields = MeasureSchema(whole.provider_schema).fields;  // the need channel aside
    if (!profile.max_fields_per_call || fields <= profile.max_fields_per_call) return std::nullopt;
    return LimitHit{SizeLimit::kFields, fields, profile.max_fields_per_call,
                    "field count " + std::to_string(fields) + " exceeds max_fields_per_call " +
                        std::to_string(profile.max_fields_per_call)};
  }
  SizeLimit l = whole.exceeded.limit;
  if (l == SizeLimit::kNone || l == SizeLimit::kDepth) return std::nullopt;  // not a matter of size
  return whole.exceeded;
}

void ScopeNeed(Lowered& lowered, const Profile& profile, const std::vector<std::string>& pointers) {
  if (!lowered.strict) return;
  bool closes = profile.keywords.count("additionalProperties") > 0;
  lowered.need = MakeNeedForm(lowered.provider_schema, profile.need, closes, profile.null_style,
                              PartNeedDescription(pointers));
}

Result<Lowering> LowerOrSplit(const Json& schema, const Profile& profile) {
  Result<Lowered> whole = Lower(schema, profile);
  if (!whole.ok()) return whole.status();
  Lowering out;
  out.whole = std::move(*whole);
  std::optional<LimitHit> forced = SplitTrigger(out.whole, profile);
  if (!forced) return out;
  out.split = PlanSplit(schema, profile, *forced);
  if (!out.is_split() && !out.whole.strict)
    out.whole.reason += "; no split into at most " + std::to_string(profile.max_split_parts) +
                        " strict parts: " + out.split.failure;
  return out;
}

}  // namespace structure::pipeline
