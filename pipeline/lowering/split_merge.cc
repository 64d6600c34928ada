#include "pipeline/lowering/split_merge.h"

#include <map>

#include "base/json_pointer.h"
#include "pipeline/generate/schema_ref.h"

namespace structure::pipeline {
namespace {

void MergeInto(Json& into, const Json& from, int depth) {
  if (depth > 256) return;
  if (into.is_array() && from.is_array()) {
    if (into.size() != from.size()) return;  // misaligned: reported by the caller
    for (size_t i = 0; i < into.size(); ++i)
      MergeInto(into.as_array()[i], from.as_array()[i], depth + 1);
    return;
  }
  if (!into.is_object() || !from.is_object()) return;
  for (const auto& [k, v] : from.as_object()) {
    Json* have = into.find(k);
    if (!have) {
      into.set(k, v);
    } else {
      MergeInto(*have, v, depth + 1);
    }
  }
}

// The lists split by columns: list pointer -> the parts holding a column of it.
std::map<std::string, std::vector<size_t>> ColumnLists(const SplitPlan& plan) {
  std::map<std::string, std::vector<size_t>> out;
  for (size_t i = 0; i < plan.parts.size(); ++i)
    for (const std::string& p : plan.parts[i].pointers) {
      size_t at = p.find("/" + std::string(kEachItem) + "/");
      if (at == std::string::npos) continue;
      std::vector<size_t>& parts = out[p.substr(0, at)];
      if (parts.empty() || parts.back() != i) parts.push_back(i);
    }
  return out;
}

// True when the field pointer lies strictly below the instance pointer ("-" matches an index).
bool FieldBelow(const std::string& field, const std::string& instance) {
  std::vector<std::string> f = PointerTokens(field), a = PointerTokens(instance);
  if (f.size() <= a.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    bool index = f[i] == kEachItem && !a[i].empty() &&
                 a[i].find_first_not_of("0123456789") == std::string::npos;
    if (!index && f[i] != a[i]) return false;
  }
  return true;
}

struct Selection {
  bool whole = false;
  std::map<std::string, Selection> children;
};

Json Select(const Json& v, const Selection& sel, int depth) {
  if (sel.whole || depth > 256) return v;
  if (auto each = sel.children.find(kEachItem); each != sel.children.end() && v.is_array()) {
    Json out = Json::MakeArray();
    for (const Json& x : v.as_array()) out.push_back(Select(x, each->second, depth + 1));
    return out;
  }
  if (!v.is_object()) return v;
  Json out = Json::MakeObject();
  for (const auto& [k, x] : v.as_object())
    if (auto it = sel.children.find(k); it != sel.children.end())
      out.set(k, Select(x, it->second, depth + 1));
  return out;
}

size_t Entries(const Json* v) { return v && v->is_array() ? v->size() : 0; }

// The keyword tokens of a constraint's schema path that its failures read under: `if` fails
// through then/else.
bool UnderConstraint(const std::string& schema_path, const FieldConstraint& c) {
  if (c.keyword != "if") return PointerWithin(schema_path, c.at);
  std::string base = c.at.substr(0, c.at.size() - 3);  // drop "/if"
  for (const char* k : {"/if", "/then", "/else"})
    if (PointerWithin(schema_path, base + k)) return true;
  return false;
}

}  // namespace

Merged MergeAnswers(const SplitPlan& plan, const std::vector<Json>& answers) {
  Merged out;
  out.value = answers.empty() ? Json::MakeObject() : answers.front();
  for (size_t i = 1; i < answers.size(); ++i) MergeInto(out.value, answers[i], 0);
  for (const auto& [list, parts] : ColumnLists(plan)) {
    if (parts.size() < 2) continue;
    size_t anchor = parts.front();
    for (size_t p : parts)
      if (p < answers.size() &&
          Entries(ValueAt(answers[p], list)) > Entries(ValueAt(answers[anchor], list)))
        anchor = p;
    const Json* entries = anchor < answers.size() ? ValueAt(answers[anchor], list) : nullptr;
    for (size_t p : parts) {
      if (p == anchor || p >= answers.size()) continue;
      if (Entries(ValueAt(answers[p], list)) == Entries(entries)) continue;
      out.misaligned.push_back({list, p, anchor, entries ? *entries : Json()});
    }
  }
  return out;
}

int OwnerOf(const SplitPlan& plan, const std::string& instance_pointer) {
  for (size_t i = 0; i < plan.parts.size(); ++i)
    for (const std::string& p : plan.parts[i].pointers)
      if (InstanceWithin(instance_pointer, p)) return static_cast<int>(i);
  return -1;
}

Attribution Attribute(const SplitPlan& plan, const std::string& instance_path,
                      const std::string& schema_path, const std::string& missing) {
  Attribution a;
  for (size_t i = 0; i < plan.cross.size(); ++i) {
    const FieldConstraint& c = plan.cross[i].constraint;
    if (UnderConstraint(schema_path, c) && InstanceWithin(instance_path, c.object)) {
      a.kind = Attribution::Kind::kCross;
      a.cross = i;
      return a;
    }
  }
  int owner = OwnerOf(plan, instance_path);
  if (owner < 0 && !missing.empty())
    owner = OwnerOf(plan, instance_path + "/" + EscapePointerToken(missing));
  if (owner >= 0) {
    a.kind = Attribution::Kind::kParts;
    a.parts.push_back(static_cast<size_t>(owner));
    return a;
  }
  // An object above the fields: every part holding a field below it.
  for (size_t i = 0; i < plan.parts.size(); ++i)
    for (const std::string& p : plan.parts[i].pointers)
      if (FieldBelow(p, instance_path)) {
        a.parts.push_back(i);
        break;
      }
  if (!a.parts.empty()) a.kind = Attribution::Kind::kParts;
  return a;
}

Json Project(const Json& doc, const std::vector<std::string>& pointers) {
  Selection root;
  for (const std::string& p : pointers) {
    Selection* cur = &root;
    for (const std::string& t : PointerTokens(p)) cur = &cur->children[t];
    cur->whole = true;
  }
  return Select(doc, root, 0);
}

const Json* ValueAt(const Json& doc, const std::string& pointer) {
  const Json* cur = &doc;
  for (const std::string& t : PointerTokens(pointer)) {
    if (cur->is_array()) {
      size_t i = 0;
      bool index =
          !t.empty() && t.size() < 10 && t.find_first_not_of("0123456789") == std::string::npos;
      if (index) i = std::stoul(t);
      cur = index && i < cur->size() ? &cur->as_array()[i] : nullptr;
    } else {
      cur = cur->is_object() ? cur->find(t) : nullptr;
    }
    if (!cur) return nullptr;
  }
  return cur;
}

void ReplaceFields(Json& merged, const Json& answer, const std::vector<std::string>& pointers) {
  for (const std::string& p : pointers) {
    std::vector<std::string> tokens = PointerTokens(p);
    if (tokens.empty()) {
      merged = answer;
      continue;
    }
    const Json* value = ValueAt(answer, p);
    Json* node = &merged;
    for (size_t i = 0; i + 1 < tokens.size() && node; ++i) {
      if (!node->is_object()) {
        node = nullptr;
        break;
      }
      Json* next = node->find(tokens[i]);
      if (!next && value) next = &node->set(tokens[i], Json::MakeObject());
      node = next;  // null: nothing there to remove
    }
    if (!node || !node->is_object()) continue;
    if (value) {
      node->set(tokens.back(), *value);
    } else {
      node->erase(tokens.back());
    }
  }
}

}  // namespace structure::pipeline
