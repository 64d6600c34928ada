#include "pipeline/evidence/form.h"

#include <string>

namespace structure::pipeline::evidence {
namespace {

// Keywords whose values are data, not schemas: a "$ref" member there is no reference.
bool IsDataKeyword(const std::string& key) {
  return key == "enum" || key == "const" || key == "default" || key == "examples";
}

void RewriteRefs(Json& node, int depth) {
  if (depth > 512) return;
  if (node.is_array()) {
    for (Json& e : node.as_array()) RewriteRefs(e, depth + 1);
    return;
  }
  if (!node.is_object()) return;
  for (auto& [key, value] : node.as_object()) {
    if (key == "$ref" && value.is_string()) {
      std::string& ref = value.as_string();
      bool hoisted = ref.rfind("#/$defs/", 0) == 0 || ref.rfind("#/definitions/", 0) == 0;
      if (ref == "#") {
        ref = "#/properties/answer";
      } else if (ref.rfind("#/", 0) == 0 && !hoisted) {
        ref = "#/properties/answer" + ref.substr(1);
      }
      continue;
    }
    if (IsDataKeyword(key)) continue;
    RewriteRefs(value, depth + 1);
  }
}

Json ClaimList() {
  auto parsed = ParseJson(R"({
    "type": "array",
    "description": "One entry per leaf value of answer (string, number, boolean).",
    "items": {
      "type": "object",
      "properties": {
        "path": {"type": "string", "description": "JSON pointer of the value in answer, e.g. /items/0/name"},
        "quote": {"type": "string", "description": "The shortest passage of the input, copied verbatim, that states the value"}
      },
      "required": ["path", "quote"],
      "additionalProperties": false
    }
  })");
  return parsed.ok() ? std::move(*parsed) : Json::MakeObject();
}

}  // namespace

Json EvidenceFormSchema(const Json& schema) {
  Json answer = schema;
  Json form = Json::MakeObject();
  if (answer.is_object()) {
    for (const char* key : {"$schema", "$defs", "definitions"}) {
      if (const Json* v = answer.find(key)) {
        form.set(key, *v);
        answer.erase(key);
      }
    }
    answer.erase("$id");
    RewriteRefs(answer, 0);
    if (Json* defs = form.find("$defs")) RewriteRefs(*defs, 0);
    if (Json* defs = form.find("definitions")) RewriteRefs(*defs, 0);
  }
  form.set("type", Json("object"));
  Json props = Json::MakeObject();
  props.set(kAnswerKey, std::move(answer));
  props.set(kEvidenceKey, ClaimList());
  form.set("properties", std::move(props));
  form.set("required", Json(Json::Array{Json(kAnswerKey), Json(kEvidenceKey)}));
  form.set("additionalProperties", Json(false));
  return form;
}

SplitAnswer SplitEvidence(Json parsed, bool whole_is_answer) {
  SplitAnswer out;
  if (parsed.is_object() && parsed.contains(kAnswerKey) && !whole_is_answer) {
    out.answer = std::move(*parsed.find(kAnswerKey));
    out.in_form = true;
    if (Json* list = parsed.find(kEvidenceKey); list != nullptr && list->is_array()) {
      out.evidence = std::move(*list);
    } else {
      out.list_missing = true;
    }
    return out;
  }
  out.answer = std::move(parsed);
  return out;
}

}  // namespace structure::pipeline::evidence
