#include "server/openai/chat_request.h"

#include <algorithm>
#include <cstdint>

#include "base/json.h"
#include "config/settings.h"
#include "pipeline/request.h"
#include "server/openai/chat_messages.h"
#include "server/openai/request_fields.h"

namespace structure::server::openai {
namespace {

// Fields OpenAI takes that change nothing here: accepted and ignored.
constexpr const char* kIgnored[] = {"frequency_penalty",
                                    "presence_penalty",
                                    "stop",
                                    "logit_bias",
                                    "parallel_tool_calls",
                                    "store",
                                    "metadata",
                                    "service_tier",
                                    "prompt_cache_key",
                                    "safety_identifier",
                                    "verbosity",
                                    "prediction",
                                    "prompt_cache_retention"};
constexpr const char* kRead[] = {"model",
                                 "messages",
                                 "response_format",
                                 "tools",
                                 "tool_choice",
                                 "stream",
                                 "stream_options",
                                 "max_tokens",
                                 "max_completion_tokens",
                                 "temperature",
                                 "top_p",
                                 "seed",
                                 "reasoning_effort",
                                 "user",
                                 "n",
                                 "logprobs",
                                 "top_logprobs",
                                 "audio",
                                 "modalities",
                                 "structure",
                                 "functions",
                                 "function_call"};

// n, logprobs, audio and modalities: only what a single text answer can honour.
Error Unsupported(const Json& body) {
  std::optional<int64_t> n;
  if (Error e = Integer(body, "n", 1, n)) return e;
  if (n && *n > 1) {
    return BadField("n", "only 1 choice is returned (was " + std::to_string(*n) + ")",
                    "unsupported_value");
  }
  bool logprobs = false;
  if (Error e = Flag(body, "", "logprobs", logprobs)) return e;
  if (logprobs)
    return BadField("logprobs", "log probabilities are not returned", "unsupported_value");
  if (Given(body, "top_logprobs") != nullptr) {
    return BadField("top_logprobs", "log probabilities are not returned", "unsupported_value");
  }
  if (Given(body, "audio") != nullptr) {
    return BadField("audio", "audio output is not supported: the answer is JSON text",
                    "unsupported_value");
  }
  if (const Json* m = Given(body, "modalities")) {
    if (!m->is_array()) return WrongType("modalities", "an array", *m);
    for (const Json& x : m->as_array()) {
      if (!x.is_string() || x.as_string() != "text") {
        return BadField("modalities", "only [\"text\"] is supported (was " + ToJson(*m) + ")",
                        "unsupported_value");
      }
    }
  }
  if (Given(body, "functions") != nullptr || Given(body, "function_call") != nullptr) {
    const char* key = Given(body, "functions") != nullptr ? "functions" : "function_call";
    return BadField(key,
                    "the legacy function-calling form is not supported: use tools and "
                    "tool_choice",
                    "unsupported_parameter");
  }
  return std::nullopt;
}

Error Params(const Json& body, pipeline::CallParams& p) {
  if (Error e = Number(body, "temperature", 0, 2, p.temperature)) return e;
  if (Error e = Number(body, "top_p", 0, 1, p.top_p)) return e;
  std::optional<int64_t> seed;
  if (Error e = Integer(body, "seed", INT64_MIN, seed)) return e;
  p.seed = seed;
  for (const char* key : {"max_tokens", "max_completion_tokens"}) {
    std::optional<int64_t> cap;
    if (Error e = Integer(body, key, 1, cap)) return e;
    if (cap) p.max_tokens = cap;
  }
  if (Error e = Text(body, "", "reasoning_effort", p.reasoning_effort)) return e;
  if (Error e = Effort(p.reasoning_effort, "reasoning_effort")) return e;
  return Text(body, "", "user", p.user);
}

// The schema moves out of `body` (it is the largest part of a request).
Error ResponseFormat(Json& body, ChatRequest& r, const ChatLimits& limits) {
  const Json* rf = Given(body, "response_format");
  if (rf == nullptr) return std::nullopt;
  if (!rf->is_object()) return WrongType("response_format", "an object", *rf);
  const Json* type = rf->find("type");
  if (type == nullptr || !type->is_string()) {
    return BadField("response_format.type", "is required: json_schema, json_object or text",
                    "missing_required_parameter");
  }
  const std::string& t = type->as_string();
  if (t == "text") return std::nullopt;
  if (t == "json_object") {
    r.schema = std::make_shared<const Json>(Json(Json::Object{{"type", "object"}}));
    r.schema_param = "response_format";
    return std::nullopt;
  }
  if (t != "json_schema") {
    return BadField("response_format.type",
                    "must be json_schema, json_object or text (was \"" + t + "\")");
  }
  const Json* js = Given(*rf, "json_schema");
  if (js == nullptr) {
    return BadField("response_format.json_schema", "is required", "missing_required_parameter");
  }
  if (!js->is_object()) return WrongType("response_format.json_schema", "an object", *js);
  std::string name;
  if (Error e = Text(*js, "response_format.json_schema.", "name", name)) return e;
  bool strict = false;
  if (Error e = Flag(*js, "response_format.json_schema.", "strict", strict)) return e;
  const Json* schema = Given(*js, "schema");
  r.schema_param = "response_format.json_schema.schema";
  if (schema == nullptr) {
    return BadField(r.schema_param, "is required", "missing_required_parameter");
  }
  if (Error e = CheckSchema(*schema, r.schema_param, limits)) return e;
  Json* owned = body.find("response_format")->find("json_schema")->find("schema");
  r.schema = std::make_shared<const Json>(std::move(*owned));
  return std::nullopt;
}

Error Tools(const Json& body, ChatRequest& r, const ChatLimits& limits) {
  const Json* tools = Given(body, "tools");
  if (tools != nullptr) {
    if (!tools->is_array()) return WrongType("tools", "an array", *tools);
    for (size_t i = 0; i < tools->as_array().size(); ++i) {
      const Json& tool = tools->as_array()[i];
      std::string where = At("tools", i);
      if (!tool.is_object()) return WrongType(where, "a tool object", tool);
      const Json* type = tool.find("type");
      if (type == nullptr || *type != Json("function")) {
        return BadField(where + ".type", "must be \"function\"");
      }
      const Json* fn = Given(tool, "function");
      if (fn == nullptr || !fn->is_object()) {
        return BadField(where + ".function", "is required: an object with name and parameters",
                        "missing_required_parameter");
      }
      const Json* name = fn->find("name");
      if (name == nullptr || !name->is_string() || name->as_string().empty()) {
        return BadField(where + ".function.name", "is required: a non-empty string",
                        "missing_required_parameter");
      }
      if (const Json* params = Given(*fn, "parameters")) {
        if (Error e = CheckSchema(*params, where + ".function.parameters", limits)) return e;
      }
    }
  }
  std::vector<const Json*> functions;
  if (tools != nullptr) {
    for (const Json& tool : tools->as_array()) functions.push_back(tool.find("function"));
  }
  return ForceTool(body, functions, ".function", {"function", "name"}, r);
}

}  // namespace

std::variant<ChatRequest, ApiError> ParseChatRequest(Json owned, const ChatLimits& limits) {
  const Json& body = owned;  // read only; ResponseFormat takes the schema from `owned`
  if (!body.is_object()) return WrongType("body", "a JSON object", body);
  if (Error e = UnknownField(body, kRead, kIgnored)) return *e;
  ChatRequest r;
  if (Error e = Model(body, r.model)) return *e;
  auto conversation = ParseMessages(body.find("messages"), limits.max_prompt_bytes);
  if (auto* e = std::get_if<ApiError>(&conversation)) return *e;
  Conversation& c = std::get<Conversation>(conversation);
  r.turns = std::move(c.turns);
  r.prompt = std::move(c.prompt);
  r.instructions = std::move(c.instructions);
  r.files = std::move(c.files);
  if (Error e = Unsupported(body)) return *e;
  if (Error e = Params(body, r.params)) return *e;
  if (Error e = Flag(body, "", "stream", r.stream)) return *e;
  if (const Json* so = Given(body, "stream_options")) {
    if (!so->is_object()) return WrongType("stream_options", "an object", *so);
    if (Error e = Flag(*so, "stream_options.", "include_usage", r.include_usage)) return *e;
  }
  if (Error e = Extension(body, r, limits)) return *e;
  if (Error e = Tools(body, r, limits)) return *e;
  if (r.tool_name.empty()) {
    if (Error e = ResponseFormat(owned, r, limits)) return *e;
  } else if (const Json* rf = Given(body, "response_format");
             rf != nullptr && !(rf->is_object() && rf->find("type") != nullptr &&
                                *rf->find("type") == Json("text"))) {
    return BadField("response_format",
                    "give one schema: response_format or a forced tool, not both");
  }
  if (Error e = SchemaFromModel(r)) return *e;
  if (Error e = OneSchema(r, "response_format",
                          "set response_format to {\"type\": \"json_schema\", \"json_schema\": "
                          "{...}} or {\"type\": \"json_object\"}")) {
    return *e;
  }
  return r;
}

pipeline::StructureRequest ToStructureRequest(ChatRequest& chat, const std::string& model_ref,
                                              const std::string& tenant,
                                              const std::string& project) {
  pipeline::StructureRequest s;
  s.prompt = std::move(chat.prompt);
  s.turns = std::move(chat.turns);
  s.instructions = std::move(chat.instructions);
  s.files = std::move(chat.files);
  if (!chat.registry_schema.empty()) {
    s.mode = pipeline::SchemaMode::kNamed;
    s.schema_ref = chat.registry_schema;
  } else {
    s.mode = pipeline::SchemaMode::kJson;
    s.schema = chat.schema;
  }
  s.tenant = tenant;
  s.project = project;
  if (!model_ref.empty()) s.settings.model = model_ref;
  if (chat.max_loops) s.settings.max_loops = *chat.max_loops;
  if (chat.evidence) s.settings.evidence = *chat.evidence;
  s.final_tool = !chat.tool_name.empty();
  s.params = chat.params;
  return s;
}

}  // namespace structure::server::openai
