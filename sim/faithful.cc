#include "sim/faithful.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <re2/re2.h>

#include "base/json_pointer.h"

namespace structure::sim {
namespace {

struct Leaf {
  std::string pointer;
  std::string quote;
};

struct Extracted {
  Json value = Json::MakeObject();
  std::vector<Leaf> evidence;
};

bool IsNumberName(const Json& spec, const std::string& name) {
  const Json* numbers = spec.find("numbers");
  if (numbers == nullptr || !numbers->is_array()) return false;
  for (const Json& n : numbers->as_array())
    if (n.is_string() && n.as_string() == name) return true;
  return false;
}

Json Typed(const Json& spec, const std::string& name, std::string_view text) {
  if (!IsNumberName(spec, name)) return Json(std::string(text));
  std::string s(text);
  if (s.find('.') == std::string::npos) {
    try {
      return Json(static_cast<int64_t>(std::stoll(s)));
    } catch (...) {
      return Json(s);
    }
  }
  try {
    return Json(std::stod(s));
  } catch (...) {
    return Json(s);
  }
}

std::string Child(std::string pointer, std::string_view token) {
  AppendPointerToken(pointer, token);
  return pointer;
}

Extracted Extract(const Json& spec, std::string_view text) {
  Extracted out;
  if (const Json* fields = spec.find("fields"); fields != nullptr && fields->is_object()) {
    for (const auto& [name, pattern] : fields->as_object()) {
      re2::RE2 re(pattern.as_string());
      if (re.NumberOfCapturingGroups() < 1) continue;
      re2::StringPiece input(text.data(), text.size());
      re2::StringPiece m[2];
      if (!re.Match(input, 0, input.size(), re2::RE2::UNANCHORED, m, 2)) continue;
      out.value.set(name, Typed(spec, name, std::string_view(m[1].data(), m[1].size())));
      out.evidence.push_back({Child("", name), std::string(m[0].data(), m[0].size())});
    }
  }
  if (const Json* records = spec.find("records"); records != nullptr && records->is_object()) {
    for (const auto& [name, pattern] : records->as_object()) {
      re2::RE2 re(pattern.as_string());
      int groups = re.NumberOfCapturingGroups();
      std::vector<re2::StringPiece> m(static_cast<size_t>(groups) + 1);
      re2::StringPiece input(text.data(), text.size());
      size_t pos = 0;
      Json list = Json::MakeArray();
      while (pos <= input.size() &&
             re.Match(input, pos, input.size(), re2::RE2::UNANCHORED, m.data(), groups + 1)) {
        Json record = Json::MakeObject();
        std::string at = Child(Child("", name), std::to_string(list.size()));
        std::string quote(m[0].data(), m[0].size());
        for (const auto& [group, index] : re.NamedCapturingGroups()) {
          const re2::StringPiece& g = m[static_cast<size_t>(index)];
          if (g.data() == nullptr) continue;
          record.set(group, Typed(spec, group, std::string_view(g.data(), g.size())));
          out.evidence.push_back({Child(at, group), quote});
        }
        list.push_back(std::move(record));
        size_t end = static_cast<size_t>(m[0].data() - input.data()) + m[0].size();
        pos = end > pos ? end : pos + 1;
      }
      if (list.size() > 0) out.value.set(name, std::move(list));
    }
  }
  return out;
}

// The schema a local "#/..." $ref names in `root`, else the schema itself.
const Json& Deref(const Json& root, const Json& schema) {
  const Json* s = &schema;
  for (int hops = 0; hops < 16 && s->is_object(); ++hops) {
    const Json* ref = s->find("$ref");
    if (ref == nullptr || !ref->is_string() || ref->as_string().rfind("#/", 0) != 0) break;
    auto tokens = SplitPointer(ref->as_string().substr(1));
    if (!tokens) break;
    const Json* at = &root;
    for (const std::string& t : *tokens) {
      if (at->is_object()) {
        at = at->find(t);
      } else if (at->is_array()) {
        size_t i = static_cast<size_t>(std::atoll(t.c_str()));
        at = i < at->size() ? &at->as_array()[i] : nullptr;
      } else {
        at = nullptr;
      }
      if (at == nullptr) break;
    }
    if (at == nullptr) break;
    s = at;
  }
  return *s;
}

bool HasProperty(const Json& schema, const char* name) {
  const Json* p = schema.find("properties");
  return p != nullptr && p->is_object() && p->find(name) != nullptr;
}

// `value` shaped for `schema`: objects get null for each listed member they lack (a strict
// schema lists them all), arrays their items shaped, an anyOf the branch that is not a need.
Json Fit(const Json& root, const Json& schema_in, Json value) {
  const Json& schema = Deref(root, schema_in);
  if (!schema.is_object()) return value;
  for (const char* key : {"anyOf", "oneOf"}) {
    const Json* branches = schema.find(key);
    if (branches == nullptr || !branches->is_array()) continue;
    for (const Json& b : branches->as_array()) {
      const Json& branch = Deref(root, b);
      if (HasProperty(branch, "_need") && !HasProperty(branch, "result")) continue;
      bool object = branch.find("properties") != nullptr;
      if (value.is_object() == object || (value.is_array() && branch.find("items")))
        return Fit(root, branch, std::move(value));
    }
    return value;
  }
  if (value.is_object()) {
    if (const Json* props = schema.find("properties"); props != nullptr && props->is_object()) {
      Json out = Json::MakeObject();
      for (const auto& [k, sub] : props->as_object()) {
        Json* v = value.find(k);
        out.set(k, v != nullptr ? Fit(root, sub, std::move(*v)) : Json());
      }
      return out;
    }
  }
  if (value.is_array()) {
    if (const Json* items = schema.find("items"); items != nullptr && items->is_object()) {
      for (Json& v : value.as_array()) v = Fit(root, *items, std::move(v));
    }
  }
  return value;
}

// The answer in the form the request's schema asks: the need envelope, the evidence form.
Json Wrap(const Json& root, const Json& schema_in, Extracted& e) {
  const Json& schema = Deref(root, schema_in);
  const Json* props = schema.find("properties");
  if (props != nullptr && props->is_object() && props->find("result") && props->find("_need")) {
    Json out = Json::MakeObject();
    out.set("result", Wrap(root, *props->find("result"), e));
    out.set("_need", Json());
    return out;
  }
  if (props != nullptr && props->is_object() && props->find("answer") && props->find("evidence")) {
    Json out = Json::MakeObject();
    out.set("answer", Fit(root, *props->find("answer"), std::move(e.value)));
    Json ev = Json::MakeArray();
    for (const Leaf& l : e.evidence) {
      Json entry = Json::MakeObject();
      entry.set("path", l.pointer);
      entry.set("quote", l.quote);
      ev.push_back(std::move(entry));
    }
    out.set("evidence", std::move(ev));
    return out;
  }
  if (const Json* any = schema.find("anyOf"); any != nullptr && any->is_array()) {
    for (const Json& b : any->as_array()) {
      const Json& branch = Deref(root, b);
      if (HasProperty(branch, "_need") && !HasProperty(branch, "result")) continue;
      return Wrap(root, branch, e);
    }
  }
  return Fit(root, schema, std::move(e.value));
}

}  // namespace

Status CheckExtractSpec(const Json& spec) {
  if (!spec.is_object()) return InvalidArgument("expected {\"fields\": {...}, \"records\": {...}}");
  for (const auto& [key, v] : spec.as_object()) {
    if (key == "numbers") {
      if (!v.is_array()) return InvalidArgument("numbers: expected an array of names");
      for (const Json& n : v.as_array())
        if (!n.is_string()) return InvalidArgument("numbers: expected an array of names");
      continue;
    }
    if (key != "fields" && key != "records")
      return InvalidArgument(key + ": unknown key (fields, records, numbers)");
    if (!v.is_object()) return InvalidArgument(key + ": expected an object of name -> pattern");
    for (const auto& [name, pattern] : v.as_object()) {
      if (!pattern.is_string()) return InvalidArgument(key + "." + name + ": expected a pattern");
      re2::RE2 re(pattern.as_string(), re2::RE2::Quiet);
      if (!re.ok()) return InvalidArgument(key + "." + name + ": " + re.error());
      if (key == "fields" && re.NumberOfCapturingGroups() < 1)
        return InvalidArgument(key + "." + name + ": the pattern needs a group for the value");
      if (key == "records" && re.NamedCapturingGroups().empty())
        return InvalidArgument(key + "." + name + ": the pattern needs named groups (?P<name>...)");
    }
  }
  return Status::Ok();
}

Answer FaithfulAnswer(const Json& spec, const ChatRequest& request) {
  Extracted e = Extract(spec, request.FirstUser());
  Answer a;
  a.source = "extract";
  const Json* schema = nullptr;
  std::string tool;
  if (request.mode == OutputMode::kTool) {
    for (const auto& t : request.tools) {
      if (t.name == "need_more_input") continue;
      if (!request.forced_tool.empty() && t.name != request.forced_tool) continue;
      schema = &*t.schema;
      tool = t.name;
      break;
    }
  } else if (request.mode == OutputMode::kJsonSchema && !request.schema->is_null()) {
    schema = &*request.schema;
  }
  Json value = schema != nullptr ? Wrap(*schema, *schema, e) : std::move(e.value);
  if (!tool.empty()) {
    a.kind = Answer::Kind::kToolCall;
    a.tool_name = tool;
    a.tool_arguments = ToJson(value);
  } else {
    a.text = ToJson(value);
  }
  return a;
}

}  // namespace structure::sim
