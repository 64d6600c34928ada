#include "tests/providers/request_schema_check.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "base/json.h"
#include "base/read_file.h"
#include "pipeline/validator/validator.h"

namespace structure::providers::testing {
namespace {

struct Published {
  Json doc;
  std::shared_ptr<const pipeline::Validator> validator;
  std::set<std::string> extra_top;      // documented elsewhere: top-level fields
  std::set<std::string> extra_message;  // documented elsewhere: fields of messages[]
  std::string error;
};

const Published& Load(const std::string& file, std::set<std::string> extra_top,
                      std::set<std::string> extra_message) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<Published>> cache;
  std::lock_guard<std::mutex> lock(mu);
  std::string key = file;
  for (const auto& f : extra_top) key += "+" + f;
  auto& slot = cache[key];
  if (slot) return *slot;
  slot = std::make_unique<Published>();
  slot->extra_top = std::move(extra_top);
  slot->extra_message = std::move(extra_message);
  auto text = ReadFile(std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/request_schemas/" + file);
  auto doc = text.ok() ? ParseJson(*text) : Result<Json>(text.status());
  if (!doc.ok()) {
    slot->error = file + ": " + doc.status().message();
    return *slot;
  }
  slot->doc = std::move(*doc);
  pipeline::ValidatorOptions options;
  options.assert_format = false;  // formats there are OpenAPI's ("float", "byte"), annotations
  auto v = pipeline::CompileSchema(slot->doc, options);
  if (!v.ok())
    slot->error = file + ": " + v.status().message();
  else
    slot->validator = *v;
  return *slot;
}

// Finds the declared fields of a value by walking the schema beside it: properties of the
// schema, of its allOf members and of the anyOf/oneOf branches the value can be an instance of.
class UnknownFields {
 public:
  UnknownFields(const Published& p, std::vector<std::string>& out) : p_(p), out_(out) {}

  void Walk(const Json& schema, const Json& v, const std::string& at, int depth) {
    if (depth > 64) return;
    std::vector<const Json*> branches;
    Collect(schema, v, branches, 0);
    if (v.is_object()) {
      bool open = false;
      std::map<std::string, std::vector<const Json*>> props;
      std::vector<const Json*> extra;
      for (const Json* b : branches) {
        if (const Json* ps = b->find("properties"); ps && ps->is_object()) {
          for (const auto& [k, s] : ps->as_object()) props[k].push_back(&s);
        }
        const Json* ap = b->find("additionalProperties");
        if (ap && ap->is_object()) extra.push_back(ap);
        if ((ap && !(ap->is_bool() && !ap->as_bool())) || b->find("patternProperties") ||
            FreeForm(*b)) {
          open = true;
        }
      }
      for (const auto& [k, x] : v.as_object()) {
        std::string child = at + "/" + k;
        auto it = props.find(k);
        if (it != props.end()) {
          for (const Json* s : it->second) Walk(*s, x, child, depth + 1);
        } else if (!extra.empty()) {
          for (const Json* s : extra) Walk(*s, x, child, depth + 1);
        } else if (!open && !Documented(at, k)) {
          out_.push_back("unknown field " + child);
        }
      }
    } else if (v.is_array()) {
      for (const Json* b : branches) {
        const Json* items = b->find("items");
        if (!items || !items->is_object()) continue;
        for (size_t i = 0; i < v.size(); ++i) {
          Walk(*items, v.as_array()[i], at + "/" + std::to_string(i), depth + 1);
        }
      }
    }
  }

 private:
  const Json& Deref(const Json& s) const {
    const Json* ref = s.is_object() ? s.find("$ref") : nullptr;
    if (!ref || !ref->is_string() || ref->as_string().rfind("#/$defs/", 0) != 0) return s;
    const Json* defs = p_.doc.find("$defs");
    const Json* t = defs ? defs->find(ref->as_string().substr(8)) : nullptr;
    return t ? Deref(*t) : s;
  }

  // The schemas that apply to v: s, its allOf members, and the union branches v fits.
  void Collect(const Json& s_in, const Json& v, std::vector<const Json*>& out, int depth) const {
    const Json& s = Deref(s_in);
    if (!s.is_object() || depth > 32 || !Fits(s, v)) return;
    out.push_back(&s);
    for (const char* key : {"allOf", "anyOf", "oneOf"}) {
      const Json* list = s.find(key);
      if (!list || !list->is_array()) continue;
      for (const Json& b : list->as_array()) Collect(b, v, out, depth + 1);
    }
  }

  // Whether v can be an instance of s judging by type, required members and the constant
  // members that discriminate unions ("type", "role").
  static bool Fits(const Json& s, const Json& v) {
    if (const Json* t = s.find("type")) {
      bool any = t->is_string() && TypeIs(t->as_string(), v);
      if (t->is_array()) {
        for (const Json& name : t->as_array()) {
          any = any || (name.is_string() && TypeIs(name.as_string(), v));
        }
      }
      if (!any) return false;
    }
    if (!v.is_object()) return true;
    if (const Json* req = s.find("required"); req && req->is_array()) {
      for (const Json& r : req->as_array()) {
        if (r.is_string() && !v.find(r.as_string())) return false;
      }
    }
    const Json* props = s.find("properties");
    if (!props || !props->is_object()) return true;
    for (const auto& [k, ps] : props->as_object()) {
      const Json* x = v.find(k);
      if (!x || !ps.is_object()) continue;
      if (const Json* c = ps.find("const"); c && !(*c == *x)) return false;
      if (const Json* e = ps.find("enum");
          e && e->is_array() && e->size() == 1 && !(e->as_array()[0] == *x)) {
        return false;
      }
    }
    return true;
  }

  static bool TypeIs(const std::string& t, const Json& v) {
    if (t == "object") return v.is_object();
    if (t == "array") return v.is_array();
    if (t == "string") return v.is_string();
    if (t == "boolean") return v.is_bool();
    if (t == "integer") return v.is_int();
    if (t == "number") return v.is_number();
    if (t == "null") return v.is_null();
    return true;
  }

  // An object schema that declares nothing about its members (a JSON Schema slot, arguments).
  static bool FreeForm(const Json& s) {
    for (const char* key : {"properties", "additionalProperties", "patternProperties", "allOf",
                            "anyOf", "oneOf", "$ref"}) {
      if (s.find(key)) return false;
    }
    return true;
  }

  // `path` ("messages/0/content/0/cache_control") against `pattern`, where a "*" segment
  // stands for any one segment ("messages/*/content/*/cache_control").
  static bool SegmentsMatch(std::string_view pattern, std::string_view path) {
    while (!pattern.empty() && !path.empty()) {
      size_t p = pattern.find('/'), q = path.find('/');
      std::string_view ps = pattern.substr(0, p), qs = path.substr(0, q);
      if (ps != "*" && ps != qs) return false;
      pattern = p == std::string_view::npos ? "" : pattern.substr(p + 1);
      path = q == std::string_view::npos ? "" : path.substr(q + 1);
    }
    return pattern.empty() && path.empty();
  }

  bool Documented(const std::string& at, const std::string& key) const {
    if (at.empty()) return p_.extra_top.count(key) > 0;
    for (const std::string& pattern : p_.extra_top) {
      // e.g. response_format/schema
      if (SegmentsMatch(pattern, at.substr(1) + "/" + key)) return true;
    }
    return at.rfind("/messages/", 0) == 0 && at.find('/', 10) == std::string::npos &&
           p_.extra_message.count(key) > 0;
  }

  const Published& p_;
  std::vector<std::string>& out_;
};

}  // namespace

std::vector<std::string> PublishedSchemaIssues(std::string_view format, std::string_view body) {
  const Published* p = nullptr;
  if (format == "openai")
    p = &Load("openai_chat.json", {}, {});
  else if (format == "openai_responses")  // an output message sent back as input: the body
    // validates (OutputMessage, OutputTextContent); the field walker does not pick that branch
    p = &Load("openai_responses.json",
              {"input/*/content/*/type", "input/*/content/*/text", "input/*/content/*/annotations",
               "input/*/content/*/logprobs"},
              {});
  else if (format == "openai_compat")  // llama.cpp server: top-level json_schema; llamafile:
    // response_format {"type":"json_object","schema":...} (both servers' own documentation)
    p = &Load("openai_chat.json", {"json_schema", "response_format/schema"}, {});
  else if (format == "openrouter")
    p = &Load("openai_chat.json", {"provider", "reasoning", "messages/*/content/*/cache_control"},
              {});
  else if (format == "anthropic")
    p = &Load("anthropic_messages.json", {}, {});
  else if (format == "gemini")
    p = &Load("gemini_generate.json", {}, {});
  else if (format == "ollama")
    p = &Load("ollama_chat.json", {}, {"tool_name"});
  if (p == nullptr) return {"no published schema for '" + std::string(format) + "'"};
  if (!p->error.empty()) return {p->error};
  auto parsed = ParseJson(body);
  if (!parsed.ok()) return {"the body is not JSON: " + parsed.status().message()};
  std::vector<std::string> issues;
  pipeline::ValidationResult vr = p->validator->Validate(*parsed, true);
  for (const auto& e : vr.errors) issues.push_back(e.message);
  UnknownFields(*p, issues).Walk(p->doc, *parsed, "", 0);
  return issues;
}

}  // namespace structure::providers::testing
