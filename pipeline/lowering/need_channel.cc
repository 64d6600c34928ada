#include "pipeline/lowering/need_channel.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace structure::pipeline {
namespace {

constexpr char kNeedDescription[] =
    "Only when a required field has no support in the input: what is missing, in one sentence. "
    "Never invent values.";

Json NeedObject(bool closed, const std::string& description) {
  Json need = Json::MakeObject();
  need.set("type", Json("object"));
  Json props = Json::MakeObject();
  props.set(kNeedKey,
            Json(Json::Object{{"type", Json("string")}, {"description", Json(description)}}));
  need.set("properties", std::move(props));
  need.set("required", Json(Json::Array{Json(kNeedKey)}));
  if (closed) need.set("additionalProperties", Json(false));
  return need;
}

// Moves the target's $defs to the root of the wrapper, where "#/$defs/..." resolves.
Json SplitDefs(Json& target) {
  Json defs;
  if (Json* d = target.find("$defs")) {
    defs = std::move(*d);
    target.erase("$defs");
  }
  return defs;
}

void RootPropertyNames(const Json& schema, std::vector<std::string>& names, int depth) {
  if (!schema.is_object() || depth > 4) return;
  if (const Json* props = schema.find("properties"); props && props->is_object()) {
    for (const auto& [name, unused] : props->as_object()) names.push_back(name);
  }
  for (const char* key : {"anyOf", "oneOf", "allOf"}) {
    const Json* list = schema.find(key);
    if (!list || !list->is_array()) continue;
    for (const Json& branch : list->as_array()) RootPropertyNames(branch, names, depth + 1);
  }
}

}  // namespace

std::string EnvelopeKeyFor(const Json& provider_schema) {
  std::vector<std::string> taken;
  RootPropertyNames(provider_schema, taken, 0);
  std::string key = kEnvelopeResultKey;
  while (std::find(taken.begin(), taken.end(), key) != taken.end()) key = "_" + key;
  return key;
}

NeedForm MakeNeedForm(const Json& provider_schema, NeedKind kind, bool close_objects,
                      NullStyle null_style, const std::string& description) {
  std::string text = description.empty() ? std::string(kNeedDescription) : description;
  NeedForm form;
  form.kind = kind;
  if (kind == NeedKind::kPromptOnly || kind == NeedKind::kSecondTool ||
      !provider_schema.is_object()) {
    form.schema = provider_schema;
    if (kind == NeedKind::kSecondTool) {
      form.tool = Json::MakeObject();
      form.tool.set("name", Json(kNeedToolName));
      form.tool.set(
          "description",
          Json(
              "Call this instead of answering when a required field has no support in the input."));
      form.tool.set("input_schema", NeedObject(close_objects, text));
    }
    return form;
  }
  Json target = provider_schema;
  if (kind == NeedKind::kEnvelope) form.envelope_key = EnvelopeKeyFor(target);
  const std::string& key = form.envelope_key;
  Json defs = SplitDefs(target);
  Json out = Json::MakeObject();
  if (kind == NeedKind::kEnvelope) {
    out.set("type", Json("object"));
    Json props = Json::MakeObject();
    Json need(Json::Object{{"type", Json("string")}, {"description", Json(text)}});
    if (null_style == NullStyle::kNullableKeyword) {
      target.set("nullable", Json(true));
      need.set("nullable", Json(true));
      props.set(key, std::move(target));
    } else {
      need.set("type", Json(Json::Array{Json("string"), Json("null")}));
      props.set(key,
                Json(Json::Object{
                    {"anyOf", Json(Json::Array{std::move(target),
                                               Json(Json::Object{{"type", Json("null")}})})}}));
    }
    props.set(kNeedKey, std::move(need));
    out.set("properties", std::move(props));
    out.set("required", Json(Json::Array{Json(key), Json(kNeedKey)}));
    if (close_objects) out.set("additionalProperties", Json(false));
  } else {
    out.set("anyOf", Json(Json::Array{std::move(target), NeedObject(close_objects, text)}));
  }
  if (!defs.is_null()) out.set("$defs", std::move(defs));
  form.schema = std::move(out);
  return form;
}

bool IsEnvelope(const Json& output, const std::string& key) {
  if (!output.is_object() || output.find(key) == nullptr) return false;
  for (const auto& [name, value] : output.as_object()) {
    if (name != key && name != kNeedKey) return false;
  }
  return true;
}

std::optional<std::string> DetectNeed(const Json& output, const NeedForm& form) {
  if (!output.is_object()) return std::nullopt;
  const Json* need = output.find(kNeedKey);
  if (!need || !need->is_string() || need->as_string().empty()) return std::nullopt;
  if (form.kind == NeedKind::kEnvelope) {
    const Json* result = output.find(form.envelope_key);
    if (result && !result->is_null()) return std::nullopt;
    return need->as_string();
  }
  if (output.size() != 1) return std::nullopt;
  return need->as_string();
}

Result<Json> UnwrapNeed(const Json& output, const NeedForm& form) {
  if (form.kind != NeedKind::kEnvelope) return output;
  if (!IsEnvelope(output, form.envelope_key)) {
    return Status(Code::kNotFound, "(root): the answer is not in the requested form");
  }
  const Json* result = output.find(form.envelope_key);
  if (result->is_null()) {
    return Status(Code::kSchemaViolation,
                  "(root): no answer was given, and no reason why the input is not enough");
  }
  return *result;
}

}  // namespace structure::pipeline
