#include "pipeline/request.h"

#include <cstdint>

#include "base/id.h"
#include "base/json.h"
#include "base/utf8.h"
#include "config/settings.h"
#include "pipeline/files/files_json.h"
#include "pipeline/loop/array_answer.h"

namespace structure {

namespace {

size_t Depth(const Json& v, size_t limit) {
  if (limit == 0) return 1;
  size_t d = 0;
  if (v.is_array()) {
    for (const auto& e : v.as_array()) d = std::max(d, Depth(e, limit - 1));
  } else if (v.is_object()) {
    for (const auto& [k, e] : v.as_object()) d = std::max(d, Depth(e, limit - 1));
  } else {
    return 0;
  }
  return d + 1;
}

Status Field(const char* name, const std::string& what) {
  return InvalidArgument(std::string(name) + ": " + what);
}

// The first string or key under `v` that is not valid UTF-8, as "PATH: invalid UTF-8 at byte
// N" (PATH: the field, then a JSON Pointer inside it), or "". Text parsed from JSON is valid
// already; this catches what a caller built from flags, files or its own strings.
std::string InvalidUtf8(const Json& v, const std::string& path) {
  if (v.is_string()) {
    std::string e = Utf8Error(v.as_string());
    return e.empty() ? e : path + ": " + e;
  }
  if (v.is_array()) {
    for (size_t i = 0; i < v.as_array().size(); ++i) {
      std::string e = InvalidUtf8(v.as_array()[i], path + "/" + std::to_string(i));
      if (!e.empty()) return e;
    }
  } else if (v.is_object()) {
    for (const auto& [key, value] : v.as_object()) {
      std::string e = Utf8Error(key);
      if (!e.empty())
        return (path.empty() ? std::string("a field name") : path + ": a key") + ": " + e;
      e = InvalidUtf8(value, path.empty() ? key : path + "/" + key);
      if (!e.empty()) return e;
    }
  }
  return "";
}

}  // namespace

std::string_view SchemaModeName(SchemaMode mode) {
  switch (mode) {
    case SchemaMode::kJson:
      return "json";
    case SchemaMode::kNamed:
      return "named";
    case SchemaMode::kText:
      return "text";
  }
  return "json";
}

namespace pipeline {

Status CheckInlineSchema(const Json& schema, const RequestLimits& limits) {
  if (!schema.is_object() && !schema.is_bool()) {
    return Field("schema", "must be an object (inline JSON Schema) or a string");
  }
  if (limits.max_schema_bytes != SIZE_MAX && JsonTextSize(schema) > limits.max_schema_bytes) {
    return Field("schema", "is larger than " + std::to_string(limits.max_schema_bytes) + " bytes");
  }
  if (Depth(schema, limits.max_schema_depth + 1) > limits.max_schema_depth) {
    return Field("schema",
                 "is nested deeper than " + std::to_string(limits.max_schema_depth) + " levels");
  }
  return Status::Ok();
}

}  // namespace pipeline

Result<StructureRequest> ParseRequest(const Json& body, const RequestLimits& limits,
                                      std::shared_ptr<const Json> default_schema) {
  if (!body.is_object()) return InvalidArgument("the request must be a JSON object");
  if (std::string e = InvalidUtf8(body, ""); !e.empty()) return InvalidArgument(e);
  static const char* kKnown[] = {"prompt",
                                 "schema",
                                 "schemaName",
                                 "schemaText",
                                 "schemaMode",
                                 "maxLoops",
                                 "tenant",
                                 "project",
                                 "model",
                                 "tokenBudget",
                                 "callTimeoutMs",
                                 "maxInputTokensPerCall",
                                 "confidenceThreshold",
                                 "requireProviderStrictOutput",
                                 "priority",
                                 "finalTool",
                                 "arrayMode",
                                 "metadata",
                                 "id",
                                 "evidence",
                                 "trace",
                                 "files",
                                 "filesAs"};
  for (const auto& [key, value] : body.as_object()) {
    bool known = false;
    for (const char* k : kKnown) known = known || key == k;
    if (!known) return InvalidArgument(key + ": unknown field");
  }
  StructureRequest r;
  if (const Json* files = body.find("files")) {
    auto parsed = pipeline::ParseFilesJson(*files, limits.files);
    if (!parsed.ok()) return parsed.status();
    r.files = std::move(*parsed);
  }
  if (const Json* as = body.find("filesAs")) {
    auto parsed = pipeline::ParseFilesAs(*as);
    if (!parsed.ok()) return parsed.status();
    r.files_as = *parsed;
  }
  // With files attached the prompt may be left out: the files are the input.
  const Json* prompt = body.find("prompt");
  if (prompt == nullptr && r.files.empty()) return Field("prompt", "is required (or files)");
  if (prompt != nullptr && !prompt->is_string()) return Field("prompt", "must be a string");
  if (prompt != nullptr && prompt->as_string().empty() && r.files.empty())
    return Field("prompt", "must not be empty");
  if (prompt != nullptr && prompt->as_string().size() > limits.max_prompt_bytes) {
    return Field("prompt", "is larger than " + std::to_string(limits.max_prompt_bytes) + " bytes");
  }
  if (prompt != nullptr) r.prompt = prompt->as_string();

  std::string mode_name;
  if (const Json* m = body.find("schemaMode")) {
    if (!m->is_string()) return Field("schemaMode", "must be \"json\", \"named\" or \"text\"");
    mode_name = m->as_string();
    if (mode_name != "json" && mode_name != "named" && mode_name != "text") {
      return Field("schemaMode",
                   "must be \"json\", \"named\" or \"text\" (was \"" + mode_name + "\")");
    }
  }
  const Json* schema = body.find("schema");
  const Json* name = body.find("schemaName");
  const Json* text = body.find("schemaText");
  int given = (schema != nullptr) + (name != nullptr) + (text != nullptr);
  if (given == 0 && !default_schema)
    return Field("schema", "is required (or schemaName, or schemaText)");
  if (given > 1) return Field("schema", "give only one of schema, schemaName, schemaText");
  if (given == 0) {
    r.mode = SchemaMode::kJson;
    r.schema = std::move(default_schema);
  } else if (schema != nullptr) {
    if (schema->is_object() || schema->is_bool()) {
      // Seed: schemaMode is ignored when schema is an object.
      STRUCTURE_RETURN_IF_ERROR(pipeline::CheckInlineSchema(*schema, limits));
      r.mode = SchemaMode::kJson;
      r.schema = std::make_shared<const Json>(*schema);
    } else if (schema->is_string()) {
      if (mode_name.empty() || mode_name == "json") {
        if (mode_name == "json")
          return Field("schema", "a string needs schemaMode \"named\" or \"text\"");
        mode_name = "named";
      }
      r.mode = mode_name == "text" ? SchemaMode::kText : SchemaMode::kNamed;
      r.schema_ref = schema->as_string();
    } else {
      return Field("schema", "must be an object (inline JSON Schema) or a string");
    }
  } else {
    const Json* s = name != nullptr ? name : text;
    const char* field = name != nullptr ? "schemaName" : "schemaText";
    if (!s->is_string() || s->as_string().empty())
      return Field(field, "must be a non-empty string");
    r.mode = name != nullptr ? SchemaMode::kNamed : SchemaMode::kText;
    r.schema_ref = s->as_string();
  }
  if ((r.mode == SchemaMode::kNamed || r.mode == SchemaMode::kText) && r.schema_ref.empty()) {
    return Field("schema", "must not be empty");
  }

  if (const Json* v = body.find("maxLoops")) {
    if (!v->is_integral() || v->as_double() < 1 || v->as_double() > 10) {
      return Field("maxLoops", "must be an integer 1..10 (was " + ToJson(*v) + ")");
    }
    r.settings.max_loops = static_cast<int>(v->as_int());
  }
  if (const Json* v = body.find("tokenBudget")) {
    if (!v->is_integral() || v->as_double() < 0) {
      return Field("tokenBudget", "must be a whole number >= 0 (was " + ToJson(*v) + ")");
    }
    r.settings.token_budget = v->as_int();
  }
  if (const Json* v = body.find("callTimeoutMs")) {
    if (!v->is_integral() || v->as_double() < 1 ||
        v->as_double() > static_cast<double>(config::kMaxCallTimeoutMs)) {
      return Field("callTimeoutMs", "must be a whole number of milliseconds 1.." +
                                        std::to_string(config::kMaxCallTimeoutMs) + " (was " +
                                        ToJson(*v) + ")");
    }
    r.settings.call_timeout_ms = v->as_int();
  }
  if (const Json* v = body.find("maxInputTokensPerCall")) {
    if (!v->is_integral() || v->as_double() < 0 || v->as_double() > 1e15) {
      return Field("maxInputTokensPerCall",
                   "must be a whole number of tokens >= 0 (was " + ToJson(*v) + ")");
    }
    r.settings.max_input_tokens_per_call = v->as_int();
  }
  if (const Json* v = body.find("confidenceThreshold")) {
    if (!v->is_number() || !(v->as_double() >= 0 && v->as_double() <= 1)) {
      return Field("confidenceThreshold", "must be a number 0..1 (was " + ToJson(*v) + ")");
    }
    r.settings.confidence_threshold = v->as_double();
  }
  if (const Json* v = body.find("requireProviderStrictOutput")) {
    if (!v->is_bool()) {
      return Field("requireProviderStrictOutput", "must be true or false (was " + ToJson(*v) + ")");
    }
    r.settings.require_provider_strict_output = v->as_bool();
  }
  if (const Json* v = body.find("evidence")) {
    auto mode = v->is_string() ? config::ParseEvidenceMode(v->as_string()) : std::nullopt;
    if (!mode) {
      return Field("evidence",
                   "must be \"off\", \"report\" or \"require\" (was " + ToJson(*v) + ")");
    }
    r.settings.evidence = *mode;
  }
  auto str = [&](const char* key, std::string& out) -> Status {
    const Json* v = body.find(key);
    if (v == nullptr) return Status::Ok();
    if (!v->is_string()) return Field(key, "must be a string");
    out = v->as_string();
    return Status::Ok();
  };
  STRUCTURE_RETURN_IF_ERROR(str("tenant", r.tenant));
  STRUCTURE_RETURN_IF_ERROR(str("project", r.project));
  if (!r.tenant.empty()) STRUCTURE_RETURN_IF_ERROR(CheckId(r.tenant, "tenant"));
  if (!r.project.empty()) STRUCTURE_RETURN_IF_ERROR(CheckId(r.project, "project"));
  if (!r.project.empty() && r.tenant.empty()) return Field("project", "needs a tenant");
  std::string model;
  STRUCTURE_RETURN_IF_ERROR(str("model", model));
  if (!model.empty()) r.settings.model = model;
  std::string priority;
  STRUCTURE_RETURN_IF_ERROR(str("priority", priority));
  if (priority == "bulk") {
    r.priority = Priority::kBulk;
  } else if (!priority.empty() && priority != "interactive") {
    return Field("priority", "must be \"interactive\" or \"bulk\" (was \"" + priority + "\")");
  }
  for (auto [key, out] : {std::pair{"finalTool", &r.final_tool},
                          std::pair{"arrayMode", &r.array_mode}, std::pair{"trace", &r.trace}}) {
    if (const Json* v = body.find(key)) {
      if (!v->is_bool()) return Field(key, "must be true or false");
      *out = v->as_bool();
    }
  }
  if (r.array_mode && r.mode == SchemaMode::kJson && !pipeline::IsArraySchema(*r.schema)) {
    // An item schema: array mode wraps it into {"type": "array", "items": ...}.
    r.schema = std::make_shared<const Json>(pipeline::ArrayModeSchema(*r.schema));
  }
  if (const Json* m = body.find("metadata")) r.metadata = *m;
  return r;
}

}  // namespace structure
