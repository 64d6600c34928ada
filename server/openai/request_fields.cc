#include "server/openai/request_fields.h"

#include "config/settings.h"
#include "pipeline/request.h"

namespace structure::server::openai {

const Json* Given(const Json& object, std::string_view key) {
  const Json* v = object.find(key);
  return v == nullptr || v->is_null() ? nullptr : v;
}

Error Model(const Json& body, std::string& out) {
  const Json* model = Given(body, "model");
  if (model == nullptr) return BadField("model", "is required", "missing_required_parameter");
  if (!model->is_string() || model->as_string().empty()) {
    return WrongType("model", "a non-empty string", *model);
  }
  out = model->as_string();
  return std::nullopt;
}

Error Effort(const std::string& effort, const std::string& param) {
  static const char* kEfforts[] = {"none", "minimal", "low", "medium", "high", "xhigh"};
  if (effort.empty() || Listed(effort, kEfforts)) return std::nullopt;
  return BadField(param,
                  "must be none, minimal, low, medium, high or xhigh (was \"" + effort + "\")");
}

Error Number(const Json& body, const char* key, double lo, double hi, std::optional<double>& out) {
  const Json* v = Given(body, key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number()) return WrongType(key, "a number", *v);
  if (v->as_double() < lo || v->as_double() > hi) {
    return BadField(key, "must be between " + ToJson(Json(lo)) + " and " + ToJson(Json(hi)) +
                             " (was " + ToJson(*v) + ")");
  }
  out = v->as_double();
  return std::nullopt;
}

Error Integer(const Json& body, const char* key, int64_t lo, std::optional<int64_t>& out) {
  const Json* v = Given(body, key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_integral()) return WrongType(key, "an integer", *v);
  if (v->as_double() < static_cast<double>(lo)) {
    return BadField(key, "must be at least " + std::to_string(lo) + " (was " + ToJson(*v) + ")");
  }
  out = v->as_int();
  return std::nullopt;
}

Error Flag(const Json& object, const std::string& prefix, const char* key, bool& out) {
  const Json* v = Given(object, key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_bool()) return WrongType(prefix + key, "a boolean", *v);
  out = v->as_bool();
  return std::nullopt;
}

Error Text(const Json& object, const std::string& prefix, const char* key, std::string& out) {
  const Json* v = Given(object, key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) return WrongType(prefix + key, "a string", *v);
  out = v->as_string();
  return std::nullopt;
}

Error CheckSchema(const Json& schema, const std::string& param, const ChatLimits& limits) {
  if (!schema.is_object() && !schema.is_bool())
    return WrongType(param, "a JSON Schema object", schema);
  size_t size = JsonTextSize(schema);
  if (size > limits.max_schema_bytes) {
    ApiError e =
        BadField(param,
                 std::to_string(size) + " bytes is over the limit of " +
                     std::to_string(limits.max_schema_bytes) + " bytes (server.max_schema_bytes)",
                 "too_large");
    e.status = 413;
    return e;
  }
  pipeline::RequestLimits rl;
  rl.max_schema_bytes = SIZE_MAX;  // measured above, with this API's error
  rl.max_schema_depth = limits.max_schema_depth;
  Status st = pipeline::CheckInlineSchema(schema, rl);
  if (!st.ok()) {
    // "schema: is nested deeper than ..." from the shared check, under this field's name.
    std::string m = st.message();
    if (m.rfind("schema: ", 0) == 0) m = m.substr(8);
    return BadField(param, m);
  }
  return std::nullopt;
}

Error Extension(const Json& body, ChatRequest& r, const ChatLimits& limits) {
  const Json* ext = Given(body, "structure");
  if (ext == nullptr) return std::nullopt;
  if (!ext->is_object()) return WrongType("structure", "an object", *ext);
  static const char* kKnown[] = {"maxLoops", "evidence", "schemaName", "tenant", "project", "need"};
  for (const auto& [key, value] : ext->as_object()) {
    if (!Listed(key, kKnown)) {
      return BadField("structure." + key,
                      "unknown field (maxLoops, evidence, schemaName, tenant, project, need)",
                      "unknown_parameter");
    }
  }
  if (const Json* v = Given(*ext, "maxLoops")) {
    if (!v->is_integral() || v->as_double() < limits.min_loops ||
        v->as_double() > limits.max_loops) {
      return BadField("structure.maxLoops",
                      "must be an integer " + std::to_string(limits.min_loops) + ".." +
                          std::to_string(limits.max_loops) + " (was " + ToJson(*v) + ")");
    }
    r.max_loops = static_cast<int>(v->as_int());
  }
  if (const Json* v = Given(*ext, "evidence")) {
    r.evidence = v->is_string() ? config::ParseEvidenceMode(v->as_string()) : std::nullopt;
    if (!r.evidence) {
      return BadField("structure.evidence",
                      "must be \"off\", \"report\" or \"require\" (was " + ToJson(*v) + ")");
    }
  }
  if (Error e = Text(*ext, "structure.", "schemaName", r.registry_schema)) return e;
  for (auto [key, out] : {std::pair{"tenant", &r.tenant}, std::pair{"project", &r.project}}) {
    std::string value;
    if (Error e = Text(*ext, "structure.", key, value)) return e;
    if (Given(*ext, key) != nullptr) *out = value;
  }
  std::string need;
  if (Error e = Text(*ext, "structure.", "need", need)) return e;
  if (!need.empty() && need != "refusal" && need != "error") {
    return BadField("structure.need", "must be \"refusal\" or \"error\" (was \"" + need + "\")");
  }
  r.need = need == "error" ? NeedAs::kError : NeedAs::kRefusal;
  return std::nullopt;
}

Error ForceTool(const Json& body, const std::vector<const Json*>& functions,
                const std::string& suffix, const std::vector<std::string>& name_path,
                ChatRequest& r) {
  const Json* choice = Given(body, "tool_choice");
  if (choice == nullptr) return std::nullopt;
  std::string name_param = "tool_choice";
  for (const std::string& key : name_path) name_param += "." + key;
  const Json* named = nullptr;
  if (choice->is_string()) {
    const std::string& c = choice->as_string();
    if (c == "none" || c == "auto") return std::nullopt;
    if (c != "required") {
      return BadField("tool_choice",
                      "must be none, auto, required or a function (was \"" + c + "\")");
    }
    if (functions.size() != 1) {
      return BadField("tool_choice", "\"required\" with " + std::to_string(functions.size()) +
                                         " tools: name the function to call");
    }
    named = functions[0]->find("name");
  } else if (choice->is_object()) {
    named = choice;
    for (const std::string& key : name_path)
      named = named != nullptr && named->is_object() ? Given(*named, key) : nullptr;
    if (named == nullptr || !named->is_string()) {
      return BadField(name_param, "is required: the function to call",
                      "missing_required_parameter");
    }
  } else {
    return WrongType("tool_choice", "a string or an object", *choice);
  }
  for (size_t i = 0; i < functions.size(); ++i) {
    if (*functions[i]->find("name") != *named) continue;
    const Json* params = Given(*functions[i], "parameters");
    r.tool_name = named->as_string();
    r.schema = std::make_shared<const Json>(
        params != nullptr ? *params : Json(Json::Object{{"type", "object"}}));
    r.schema_param = At("tools", i) + suffix + ".parameters";
    return std::nullopt;
  }
  return BadField(name_param, "no function named \"" + named->as_string() + "\" in tools",
                  "tool_not_found");
}

Error OneSchema(const ChatRequest& r, const std::string& field, const std::string& how) {
  if (r.schema == nullptr && r.registry_schema.empty()) {
    return BadField(field,
                    "this endpoint returns structured output only: " + how +
                        ", force a function with tool_choice, or name a registry schema in "
                        "structure.schemaName",
                    "structured_output_required");
  }
  if (r.schema != nullptr && !r.registry_schema.empty()) {
    return BadField("structure.schemaName",
                    "give one schema: " + r.schema_param + " or structure.schemaName, not both");
  }
  return std::nullopt;
}

}  // namespace structure::server::openai
