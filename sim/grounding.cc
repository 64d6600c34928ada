#include "sim/grounding.h"

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "base/json_pointer.h"
#include "pipeline/generate/schema_ref.h"
#include "pipeline/lowering/drop_note.h"
#include "pipeline/validator/validator.h"

namespace structure::sim {
namespace {

using Schemas = std::vector<const Json*>;

void Expand(const Json& root, const Json* s, Schemas& out, int depth) {
  if (s == nullptr || !s->is_object() || depth > 16 || out.size() > 64) return;
  out.push_back(s);
  if (const Json* ref = s->find("$ref"); ref != nullptr && ref->is_string()) {
    Expand(root, pipeline::ResolveLocalRef(root, ref->as_string()), out, depth + 1);
  }
  for (const char* key : {"anyOf", "oneOf", "allOf"}) {
    const Json* list = s->find(key);
    if (list == nullptr || !list->is_array()) continue;
    for (const Json& b : list->as_array()) Expand(root, &b, out, depth + 1);
  }
}

Schemas Member(const Json& root, const Schemas& ss, const std::string& key) {
  Schemas out;
  for (const Json* s : ss) {
    const Json* props = s->find("properties");
    if (props != nullptr && props->is_object()) Expand(root, props->find(key), out, 0);
  }
  return out;
}

Schemas Element(const Json& root, const Schemas& ss) {
  Schemas out;
  for (const Json* s : ss) Expand(root, s->find("items"), out, 0);
  return out;
}

// A passage of the prompt: a word without the punctuation around it.
struct Word {
  std::string text;
  bool number = false;
  double value = 0;
};

std::vector<Word> Words(const std::string& prompt) {
  std::vector<Word> out;
  size_t i = 0;
  while (i < prompt.size()) {
    while (i < prompt.size() && (prompt[i] == ' ' || prompt[i] == '\n' || prompt[i] == '\t')) ++i;
    size_t j = i;
    while (j < prompt.size() && prompt[j] != ' ' && prompt[j] != '\n' && prompt[j] != '\t') ++j;
    std::string w = prompt.substr(i, j - i);
    i = j;
    auto punct = [](char c) {
      return c == ',' || c == '.' || c == ';' || c == ':' || c == '!' || c == '?' || c == '(' ||
             c == ')' || c == '"' || c == '\'';
    };
    while (!w.empty() && punct(w.back())) w.pop_back();
    while (!w.empty() && punct(w.front())) w.erase(0, 1);
    if (w.empty()) continue;
    Word word{w};
    std::string digits;
    bool numeric = true;
    for (char c : w) {
      if (c >= '0' && c <= '9')
        digits += c;
      else if (c == '.' && !digits.empty())
        digits += c;
      else if (c != ',')
        numeric = false;
    }
    if (numeric && !digits.empty() && digits.size() < 16) {
      word.number = true;
      word.value = std::strtod(digits.c_str(), nullptr);
    }
    out.push_back(std::move(word));
  }
  return out;
}

// A keyword that lowering moved into the description of s because the provider's form cannot
// take it (pipeline/lowering/drop_note.h); the client still checks it, so a grounded value must
// keep it too.
std::optional<Json> DroppedKeyword(const Json* s, std::string_view key) {
  const Json* d = s->find("description");
  if (d == nullptr || !d->is_string()) return std::nullopt;
  return pipeline::DroppedKeyword(d->as_string(), key);
}

// A numeric keyword of s, in the schema or dropped into its description.
std::optional<double> NumberKeyword(const Json* s, const char* key) {
  if (const Json* v = s->find(key); v != nullptr && v->is_number()) return v->as_double();
  auto dropped = DroppedKeyword(s, key);
  return dropped && dropped->is_number() ? std::optional<double>(dropped->as_double())
                                         : std::nullopt;
}

bool Constrained(const Schemas& ss) {
  for (const Json* s : ss) {
    for (const char* k : {"enum", "const", "pattern", "format"}) {
      if (s->contains(k) || DroppedKeyword(s, k)) return true;
    }
  }
  return false;
}

bool FitsString(const Schemas& ss, const std::string& w) {
  for (const Json* s : ss) {
    auto lo = NumberKeyword(s, "minLength");
    auto hi = NumberKeyword(s, "maxLength");
    double length = 0;  // in code points, as JSON Schema counts
    for (unsigned char c : w) length += (c & 0xC0) != 0x80 ? 1 : 0;
    if (lo && length < *lo) return false;
    if (hi && length > *hi) return false;
  }
  return true;
}

bool FitsNumber(const Schemas& ss, double v, bool integer) {
  for (const Json* s : ss) {
    const Json* t = s->find("type");
    if (t != nullptr && t->is_string() && t->as_string() == "integer" &&
        v != static_cast<double>(static_cast<int64_t>(v)))
      return false;
    if (integer && v != static_cast<double>(static_cast<int64_t>(v))) return false;
    for (const char* k :
         {"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf"}) {
      auto b = NumberKeyword(s, k);
      if (!b) continue;
      double x = *b;
      std::string key(k);
      if ((key == "minimum" && v < x) || (key == "maximum" && v > x) ||
          (key == "exclusiveMinimum" && v <= x) || (key == "exclusiveMaximum" && v >= x) ||
          (key == "multipleOf" && x > 0 && std::fmod(v, x) != 0)) {
        return false;
      }
    }
  }
  return true;
}

// enum and const values are classifications: their quote is a passage the value was read from,
// not the value itself.
bool Classification(const Schemas& ss) {
  for (const Json* s : ss) {
    if (s->contains("enum") || s->contains("const") || DroppedKeyword(s, "enum") ||
        DroppedKeyword(s, "const"))
      return true;
  }
  return false;
}

// A word of the prompt that passes the string keywords of ss (pattern, format, lengths, in the
// schema or dropped into its description), so a formatted value (an e-mail address, a date) is
// taken from the text when the text has one; nullopt when no word does.
std::optional<std::string> FittingWord(const Schemas& ss, const std::vector<Word>& words) {
  Json leaf = Json::MakeObject();
  leaf.set("type", Json("string"));
  for (const Json* s : ss) {
    for (const char* k : {"pattern", "format"}) {
      if (const Json* v = s->find(k); v != nullptr && v->is_string())
        leaf.set(k, *v);
      else if (auto dropped = DroppedKeyword(s, k); dropped && dropped->is_string())
        leaf.set(k, *dropped);
    }
  }
  auto validator = pipeline::CompileSchema(leaf);
  if (!validator.ok()) return std::nullopt;
  for (const Word& w : words) {
    if (FitsString(ss, w.text) && (*validator)->Validate(Json(w.text), false).valid) return w.text;
  }
  return std::nullopt;
}

struct Grounder {
  const Json& root;
  const std::vector<Word>& words;
  Rng& rng;
  Json claims = Json::MakeArray();
  std::vector<size_t> leaves;  // indexes into claims

  void Claim(const std::string& path, const std::string& quote) {
    Json c = Json::MakeObject();
    c.set("path", Json(path));
    c.set("quote", Json(quote));
    leaves.push_back(claims.size());
    claims.push_back(std::move(c));
  }

  std::string AnyWord() { return words.empty() ? "" : words[rng.Below(words.size())].text; }

  void Walk(Json& v, const Schemas& ss, const std::string& path) {
    if (v.is_object()) {
      for (auto& [key, child] : v.as_object()) {
        Walk(child, Member(root, ss, key), path + "/" + EscapePointerToken(key));
      }
      return;
    }
    if (v.is_array()) {
      Schemas items = Element(root, ss);
      for (size_t i = 0; i < v.size(); ++i)
        Walk(v.as_array()[i], items, path + "/" + std::to_string(i));
      return;
    }
    if (v.is_null()) return;
    if (v.is_string() && Classification(ss)) return Claim(path, AnyWord());
    if (v.is_string() && Constrained(ss)) {
      if (auto w = FittingWord(ss, words)) {
        v = Json(*w);
        return Claim(path, *w);
      }
    } else if (v.is_string()) {
      size_t start = words.empty() ? 0 : rng.Below(words.size());
      for (size_t k = 0; k < words.size(); ++k) {
        const Word& w = words[(start + k) % words.size()];
        if (!w.number && FitsString(ss, w.text)) {
          v = Json(w.text);
          return Claim(path, w.text);
        }
      }
    } else if (v.is_number()) {
      for (const Word& w : words) {
        if (w.number && FitsNumber(ss, w.value, v.is_int())) {
          v = v.is_int() ? Json(static_cast<int64_t>(w.value)) : Json(w.value);
          return Claim(path, w.text);
        }
      }
    }
    // A boolean, or a value the prompt has no fitting word for: quoted as it is (a string), or
    // with some passage of the prompt.
    Claim(path, v.is_string() ? v.as_string() : AnyWord());
  }
};

// The form's place inside a generated answer: {"answer", "evidence"} with its schemas.
Json* FindForm(Json& v, const Json& root, const Schemas& ss, Schemas* form_schemas, int depth) {
  if (depth > 8 || !v.is_object()) return nullptr;
  if (v.size() == 2 && v.contains("answer") && v.contains("evidence")) {
    *form_schemas = ss;
    return &v;
  }
  for (auto& [key, child] : v.as_object()) {
    if (Json* f = FindForm(child, root, Member(root, ss, key), form_schemas, depth + 1)) return f;
  }
  return nullptr;
}

}  // namespace

bool GroundAnswer(Json& value, const Json& schema, const std::string& prompt,
                  double ungrounded_rate, Rng& rng) {
  Schemas top;
  Expand(schema, &schema, top, 0);
  Schemas form_schemas;
  Json* form = FindForm(value, schema, top, &form_schemas, 0);
  if (form == nullptr) return false;
  std::vector<Word> words = Words(prompt);
  Grounder g{schema, words, rng, Json::MakeArray(), {}};
  g.Walk(*form->find("answer"), Member(schema, form_schemas, "answer"), "");
  bool invent = !g.leaves.empty() && rng.Uniform() < ungrounded_rate;
  if (invent) {
    // An invented value: its quote is text the prompt does not have.
    Json& claim = g.claims.as_array()[g.leaves[rng.Below(g.leaves.size())]];
    claim.set("quote", Json("as stated in the message above"));
  }
  *form->find("evidence") = std::move(g.claims);
  return invent;
}

}  // namespace structure::sim
