#include "server/openai/request_fields.h"

#include <map>

#include "config/settings.h"
#include "pipeline/request.h"
#include "server/openai/models.h"

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

namespace {

// The tool_choice object that forces function `name`, in the shape whose name sits at
// `name_path`: {"type": "function", "function": {"name": "f"}} (Chat Completions) or
// {"type": "function", "name": "f"} (Responses).
std::string ForcedShape(const std::vector<std::string>& name_path, const std::string& name) {
  std::string inner = "\"" + name + "\"";
  for (auto it = name_path.rbegin(); it != name_path.rend(); ++it) {
    inner = "{\"" + *it + "\": " + inner + "}";
  }
  return "{\"type\": \"function\", " + inner.substr(1);
}

// The function a suggestion names: the only one allowed_tools lists, else the only tool, else
// a placeholder.
std::string SuggestedName(const Json& choice, const std::vector<const Json*>& functions) {
  const Json* allowed = Given(choice, "allowed_tools");
  const Json* list = allowed != nullptr && allowed->is_object() ? Given(*allowed, "tools")
                                                                : Given(choice, "tools");
  if (list != nullptr && list->is_array() && list->as_array().size() == 1 &&
      list->as_array()[0].is_object()) {
    const Json& tool = list->as_array()[0];
    const Json* fn = Given(tool, "function");
    const Json* name = fn != nullptr && fn->is_object() ? Given(*fn, "name") : Given(tool, "name");
    if (name != nullptr && name->is_string()) return name->as_string();
  }
  if (functions.size() == 1) {
    const Json* name = functions[0]->find("name");
    if (name != nullptr && name->is_string()) return name->as_string();
  }
  return "NAME";
}

// A tool_choice object of a type other than "function" (the shapes the OpenAI SDKs send:
// allowed_tools, custom, mcp and the built-in tools): refused, saying what to send instead.
Error ChoiceType(const Json& choice, const std::vector<const Json*>& functions,
                 const std::vector<std::string>& name_path) {
  const Json* type = Given(choice, "type");
  if (type == nullptr) return std::nullopt;  // read as a function choice
  if (!type->is_string()) return WrongType("tool_choice.type", "a string", *type);
  const std::string& t = type->as_string();
  if (t == "function") return std::nullopt;
  std::string instead = "send tool_choice " +
                        ForcedShape(name_path, SuggestedName(choice, functions)) +
                        " to force one function tool (the answer is that call's arguments), or "
                        "\"required\" with a single tool";
  std::string why;
  if (t == "allowed_tools") {
    why =
        "{\"type\": \"allowed_tools\"} is not supported: the answer must be one forced "
        "function call, not a choice among tools";
  } else if (t == "custom") {
    why = "custom (free-form text) tools are not supported: the answer is JSON";
  } else if (t == "mcp") {
    why = "MCP tools are not served here";
  } else {
    static const char* kBuiltIn[] = {
        // The SDKs' ToolChoiceTypes, ToolChoiceApplyPatch, ToolChoiceShell and the programmatic
        // tool calling choice (openai-node resources/responses/responses.d.ts).
        "file_search",
        "web_search",
        "web_search_preview",
        "web_search_preview_2025_03_11",
        "computer",
        "computer_use",
        "computer_use_preview",
        "image_generation",
        "code_interpreter",
        "apply_patch",
        "shell",
        "local_shell",
        "programmatic_tool_calling"};
    if (!Listed(t, kBuiltIn)) {
      return BadField("tool_choice.type", "must be \"function\" (was \"" + t + "\"): " + instead);
    }
    why = "built-in tools (\"" + t + "\") are not served here";
  }
  return BadField("tool_choice", why + "; " + instead, "unsupported_value");
}

// Two tools with one function name: refused as OpenAI refuses them, naming both.
Error UniqueNames(const std::vector<const Json*>& functions, const std::string& suffix) {
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < functions.size(); ++i) {
    const Json* name = functions[i]->find("name");
    if (name == nullptr || !name->is_string()) continue;
    auto [it, fresh] = seen.emplace(name->as_string(), i);
    if (fresh) continue;
    return BadField(At("tools", i) + suffix + ".name",
                    "\"" + name->as_string() + "\" is also the name of " + At("tools", it->second) +
                        ": function names must be unique",
                    "duplicate_function_name");
  }
  return std::nullopt;
}

}  // namespace

Error ForceTool(const Json& body, const std::vector<const Json*>& functions,
                const std::string& suffix, const std::vector<std::string>& name_path,
                ChatRequest& r) {
  if (Error e = UniqueNames(functions, suffix)) return e;
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
    if (Error e = ChoiceType(*choice, functions, name_path)) return e;
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

Error SchemaFromModel(ChatRequest& r) {
  if (!IsSchemaModel(r.model)) return std::nullopt;
  auto read = ReadSchemaModel(r.model);
  if (auto* e = std::get_if<ApiError>(&read)) return *e;
  SchemaModel& m = std::get<SchemaModel>(read);
  if (!r.registry_schema.empty() && r.registry_schema != m.name) {
    return BadField("structure.schemaName", "names schema \"" + r.registry_schema +
                                                "\" while model names schema \"" + m.name +
                                                "\": give one");
  }
  r.schema_model = true;
  r.registry_schema = std::move(m.name);
  r.registry_version = std::move(m.version);
  r.schema = nullptr;
  r.schema_param = "model";
  return std::nullopt;
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
