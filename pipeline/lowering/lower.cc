#include "pipeline/lowering/lower.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <utility>

#include "base/json_pointer.h"
#include "pipeline/generate/schema_merge.h"
#include "pipeline/generate/schema_ref.h"
#include "pipeline/lowering/lower_internal.h"

namespace structure::pipeline {
namespace {

constexpr char kRootEnvelopeKey[] = "value";

const std::set<std::string> kTypeNames = {"string", "number", "integer", "boolean",
                                          "object", "array",  "null"};

class SchemaShape {
 public:
  Status Check(const Json& s, const std::string& path, int depth) {
    if (depth > 256) return Fail(path, "schema nests deeper than 256 levels");
    if (s.is_bool()) return Status::Ok();
    if (!s.is_object()) return Fail(path, "a schema must be an object or a boolean");
    for (const auto& [k, v] : s.as_object()) {
      std::string at = path + "/" + EscapePointerToken(k);
      if (k == "type") {
        bool ok = v.is_string() ? kTypeNames.count(v.as_string()) > 0 : v.is_array();
        if (v.is_array())
          for (const Json& t : v.as_array())
            ok = ok && t.is_string() && kTypeNames.count(t.as_string());
        if (!ok) return Fail(at, "type must be a JSON type name or an array of them");
      } else if (k == "properties" || k == "patternProperties" || k == "$defs" ||
                 k == "definitions" || k == "dependentSchemas") {
        if (!v.is_object()) return Fail(at, k + " must be an object");
        for (const auto& [name, sub] : v.as_object())
          STRUCTURE_RETURN_IF_ERROR(Check(sub, at + "/" + EscapePointerToken(name), depth + 1));
      } else if (k == "allOf" || k == "anyOf" || k == "oneOf" || k == "prefixItems") {
        if (!v.is_array() || v.size() == 0) return Fail(at, k + " must be a non-empty array");
        for (size_t i = 0; i < v.size(); ++i)
          STRUCTURE_RETURN_IF_ERROR(
              Check(v.as_array()[i], at + "/" + std::to_string(i), depth + 1));
      } else if (k == "items") {
        if (v.is_array()) {
          for (size_t i = 0; i < v.size(); ++i)
            STRUCTURE_RETURN_IF_ERROR(
                Check(v.as_array()[i], at + "/" + std::to_string(i), depth + 1));
        } else {
          STRUCTURE_RETURN_IF_ERROR(Check(v, at, depth + 1));
        }
      } else if (k == "additionalProperties" || k == "additionalItems" || k == "not" || k == "if" ||
                 k == "then" || k == "else" || k == "contains" || k == "propertyNames" ||
                 k == "unevaluatedProperties" || k == "unevaluatedItems") {
        STRUCTURE_RETURN_IF_ERROR(Check(v, at, depth + 1));
      } else if (k == "required") {
        if (!v.is_array()) return Fail(at, "required must be an array of property names");
        for (const Json& x : v.as_array())
          if (!x.is_string()) return Fail(at, "required must be an array of property names");
      } else if (k == "enum") {
        if (!v.is_array()) return Fail(at, "enum must be an array");
      } else if (k == "$ref" || k == "pattern" || k == "format") {
        if (!v.is_string()) return Fail(at, k + " must be a string");
      } else if (k == "minLength" || k == "maxLength" || k == "minItems" || k == "maxItems" ||
                 k == "minProperties" || k == "maxProperties") {
        if (!v.is_number() || !v.is_integral() || v.as_double() < 0)
          return Fail(at, k + " must be a non-negative integer");
      } else if (k == "minimum" || k == "maximum") {
        if (!v.is_number()) return Fail(at, k + " must be a number");
      } else if (k == "exclusiveMinimum" || k == "exclusiveMaximum") {
        if (!v.is_number() && !v.is_bool()) return Fail(at, k + " must be a number");
      } else if (k == "multipleOf") {
        if (!v.is_number() || v.as_double() <= 0)
          return Fail(at, "multipleOf must be a number above 0");
      }
    }
    return Status::Ok();
  }

 private:
  static Status Fail(const std::string& path, const std::string& why) {
    return InvalidArgument("not a JSON Schema: " + (path.empty() ? std::string("(root)") : path) +
                           ": " + why);
  }
};

Lowered Fallback(const Json& schema, std::string reason) {
  Lowered r;
  r.strict = false;
  r.provider_schema = schema;
  r.reason = std::move(reason);
  r.need = MakeNeedForm(schema, NeedKind::kPromptOnly);
  return r;
}

}  // namespace

Status CheckIsSchema(const Json& schema) { return SchemaShape().Check(schema, "", 0); }

namespace {

// What another lowering attempt in another mode may do about a fallback.
enum class Retry {
  kNo,          // nothing: the fallback stands
  kInlineRefs,  // the schema is recursive: inline its references
  kCutDepth,    // too deep: inline references and carry deep subtrees as JSON text
  kCapEnums,    // too many enum values or too many strings: check large enums locally
};

// One lowering attempt; `retry` says what a next attempt may change.
Lowered Attempt(const Json& schema, const Profile& profile, detail::Mode mode, Retry& retry) {
  retry = Retry::kNo;
  detail::Lowerer lowerer(schema, profile, mode);
  detail::Out out = lowerer.Node(schema, "", 0);
  if (!lowerer.fatal().empty()) {
    if (lowerer.recursion_fatal()) retry = Retry::kInlineRefs;
    return Fallback(schema, lowerer.fatal());
  }
  if (out.never) return Fallback(schema, "the schema accepts no value");
  Lowered r;
  r.strict = true;
  LiftPlan& plan = r.lift_plan;
  Json provider = std::move(out.schema);
  const Json* type = provider.find("type");
  bool object_root =
      type && type->is_string() && type->as_string() == "object" && !provider.contains("anyOf");
  if (profile.root_must_be_object && !object_root) {
    Json env = Json::MakeObject();
    env.set("type", Json("object"));
    env.set("properties", Json(Json::Object{{kRootEnvelopeKey, std::move(provider)}}));
    env.set("required", Json(Json::Array{Json(kRootEnvelopeKey)}));
    env.set("additionalProperties", Json(false));
    provider = std::move(env);
    plan.envelope_key = kRootEnvelopeKey;
  }
  if (lowerer.defs().size() > 0) provider.set("$defs", lowerer.defs());
  plan.root = out.plan;
  plan.nodes = std::make_shared<const std::vector<LiftNode>>(std::move(lowerer.plan()));
  plan.defs = std::make_shared<const Json>(lowerer.defs());
  r.need = MakeNeedForm(provider, profile.need, profile.keywords.count("additionalProperties") > 0,
                        profile.null_style);
  LimitHit hit = FirstExceeded(MeasureSchema(r.need.schema), profile);
  if (hit.limit != SizeLimit::kNone) {
    if (hit.limit == SizeLimit::kDepth) retry = Retry::kCutDepth;
    if (hit.limit == SizeLimit::kEnumValues || hit.limit == SizeLimit::kStringBudget)
      retry = Retry::kCapEnums;
    Lowered f = Fallback(schema, hit.text);
    f.exceeded = std::move(hit);
    return f;
  }
  r.provider_schema = std::move(provider);
  r.dropped = std::move(lowerer.dropped());
  return r;
}

// Changes `mode` for the next attempt after a fallback; false when no attempt can do better.
bool NextMode(Retry retry, const Profile& profile, detail::Mode& mode) {
  switch (retry) {
    case Retry::kCapEnums:
      mode.enum_cap = mode.enum_cap ? mode.enum_cap / 2 : 64;
      return mode.enum_cap >= 2;
    case Retry::kCutDepth:
      mode.inline_refs = true;
      mode.cut_depth =
          mode.cut_depth ? mode.cut_depth - 1 : (profile.max_depth > 1 ? profile.max_depth - 1 : 1);
      return mode.cut_depth >= 2;
    case Retry::kInlineRefs:
      if (mode.inline_refs) return false;
      mode.inline_refs = true;
      return true;
    case Retry::kNo:
      return false;
  }
  return false;
}

}  // namespace

// `true`, `{}` or only annotations: every JSON value is an answer, which no strict form states
// (a root object or a JSON text in a string would be a detour), so it is asked in plain JSON.
// A root `$ref` that does not resolve counts too: it only reaches lowering when the caller
// allowed unresolved references, which then accept any value.
namespace {
bool AcceptsAnyValue(const Json& schema) {
  if (schema.is_bool()) return schema.as_bool();
  for (const auto& [k, v] : schema.as_object()) {
    if (k == "$ref" && v.is_string() && ResolveLocalRef(schema, v.as_string()) == nullptr) continue;
    if (!IsAnnotationKeyword(k)) return false;
  }
  return true;
}
}  // namespace

Result<Lowered> Lower(const Json& schema, const Profile& profile) {
  STRUCTURE_RETURN_IF_ERROR(CheckIsSchema(schema));
  if (AcceptsAnyValue(schema)) return Fallback(schema, "the schema accepts any JSON value");
  if (!profile.enforces)
    return Fallback(schema, "profile '" + profile.name + "' does not enforce schemas");
  Retry retry = Retry::kNo;
  detail::Mode mode;
  Lowered result = Attempt(schema, profile, mode, retry);
  // Past the optional limit with unions to spare: the excess optional properties become
  // required + nullable (null means absent, as on OpenAI). If that breaks another limit, the
  // first reason stands.
  if (!result.strict && result.exceeded.limit == SizeLimit::kOptional && profile.max_unions) {
    detail::Mode nullable = mode;
    nullable.optional_as_null = result.exceeded.value - result.exceeded.bound;
    Retry unused = Retry::kNo;
    Lowered second = Attempt(schema, profile, nullable, unused);
    if (second.strict) return second;
  }
  // Further attempts: inline refs and carry recursion and too-deep subtrees as JSON text; check
  // large enums locally when the schema-wide enum or string budget is exceeded.
  for (int round = 0; round < 8 && !result.strict; ++round) {
    if (!NextMode(retry, profile, mode)) break;
    result = Attempt(schema, profile, mode, retry);
  }
  return result;
}

}  // namespace structure::pipeline
