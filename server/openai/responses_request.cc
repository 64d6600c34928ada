#include "server/openai/responses_request.h"

#include <string>

#include "server/openai/chat_messages.h"
#include "server/openai/request_fields.h"

namespace structure::server::openai {
namespace {

constexpr const char* kIgnored[] = {"store",
                                    "metadata",
                                    "truncation",
                                    "include",
                                    "parallel_tool_calls",
                                    "service_tier",
                                    "prompt_cache_key",
                                    "safety_identifier",
                                    "max_tool_calls",
                                    "prompt_cache_retention",
                                    "stream_options"};
constexpr const char* kRead[] = {
    "model",        "input",  "instructions",      "text",        "tools",
    "tool_choice",  "stream", "max_output_tokens", "temperature", "top_p",
    "reasoning",    "user",   "structure",         "background",  "previous_response_id",
    "conversation", "prompt", "top_logprobs"};

// What the Responses API can do that one structured answer here cannot: refused, named.
Error Unsupported(const Json& body) {
  bool flag = false;
  if (Error e = Flag(body, "", "background", flag)) return e;
  if (flag) return BadField("background", "background runs are not served", "unsupported_value");
  for (const char* key : {"previous_response_id", "conversation", "prompt"}) {
    if (Given(body, key) != nullptr) {
      return BadField(key,
                      "responses and prompts are not stored here: send the whole conversation "
                      "in input",
                      "unsupported_parameter");
    }
  }
  if (Given(body, "top_logprobs") != nullptr) {
    return BadField("top_logprobs", "log probabilities are not returned", "unsupported_value");
  }
  return std::nullopt;
}

// One item of `input`: a message (role and content), an earlier function call of the model, or
// its output. Adds to `out` (the user messages' text to out.prompt too).
Error Item(const Json& item, const std::string& where, Conversation& out) {
  if (!item.is_object()) return WrongType(where, "an input item object", item);
  std::string type = "message";
  if (Error e = Text(item, where + ".", "type", type)) return e;
  ConversationTurn turn;
  if (type == "function_call") {
    std::string args;
    if (Error e = Text(item, where + ".", "arguments", args)) return e;
    turn.role = TurnRole::kAssistant;
    turn.text = std::move(args);
  } else if (type == "function_call_output") {
    std::string id, output;
    if (Error e = Text(item, where + ".", "call_id", id)) return e;
    if (Error e = Text(item, where + ".", "output", output)) return e;
    turn.text = "Result of tool call " + id + ": " + output;
  } else if (type == "reasoning") {
    return std::nullopt;  // the model's own earlier thinking: nothing to pass on
  } else if (type == "message") {
    const Json* role = item.find("role");
    if (role == nullptr || !role->is_string()) {
      return BadField(where + ".role", "is required: user, assistant, system or developer",
                      "missing_required_parameter");
    }
    const std::string& r = role->as_string();
    if (r != "system" && r != "developer" && r != "user" && r != "assistant") {
      return BadField(where + ".role",
                      "must be user, assistant, system or developer (was \"" + r + "\")");
    }
    const Json* content = Given(item, "content");
    if (content == nullptr) {
      return BadField(where + ".content", "is required", "missing_required_parameter");
    }
    auto text = ContentText(*content, where + ".content");
    if (auto* e = std::get_if<ApiError>(&text)) return *e;
    if (r == "system" || r == "developer") {
      AppendParagraph(out.instructions, std::get<std::string>(text));
      return std::nullopt;
    }
    turn.role = r == "assistant" ? TurnRole::kAssistant : TurnRole::kUser;
    turn.text = std::get<std::string>(std::move(text));
    if (r == "user") AppendParagraph(out.prompt, turn.text);
  } else {
    return BadField(
        where + ".type",
        "must be message, function_call, function_call_output or reasoning (was \"" + type + "\")");
  }
  out.turns.push_back(std::move(turn));
  return std::nullopt;
}

std::variant<Conversation, ApiError> Input(const Json& body, size_t max_prompt_bytes) {
  const Json* input = Given(body, "input");
  if (input == nullptr) return BadField("input", "is required", "missing_required_parameter");
  Conversation out;
  if (Error e = Text(body, "", "instructions", out.instructions)) return *e;
  if (input->is_string()) {
    out.prompt = input->as_string();
    out.turns.push_back({TurnRole::kUser, input->as_string()});
  } else if (input->is_array()) {
    for (size_t i = 0; i < input->as_array().size(); ++i) {
      if (Error e = Item(input->as_array()[i], At("input", i), out)) return *e;
    }
  } else {
    return WrongType("input", "a string or an array of input items", *input);
  }
  size_t bytes = out.instructions.size();
  for (const ConversationTurn& t : out.turns) bytes += t.text.size();
  if (bytes > max_prompt_bytes) {
    ApiError e = BadField("input",
                          "the text of the input is over the limit of " +
                              std::to_string(max_prompt_bytes) + " bytes (server.max_prompt_bytes)",
                          "too_large");
    e.status = 413;
    return e;
  }
  if (out.prompt.empty()) {
    return BadField("input", "must hold a user message with text (the input to structure)",
                    "missing_user_message");
  }
  return out;
}

Error Params(const Json& body, pipeline::CallParams& p) {
  if (Error e = Number(body, "temperature", 0, 2, p.temperature)) return e;
  if (Error e = Number(body, "top_p", 0, 1, p.top_p)) return e;
  std::optional<int64_t> cap;
  if (Error e = Integer(body, "max_output_tokens", 1, cap)) return e;
  p.max_tokens = cap;
  if (const Json* reasoning = Given(body, "reasoning")) {
    if (!reasoning->is_object()) return WrongType("reasoning", "an object", *reasoning);
    if (Error e = Text(*reasoning, "reasoning.", "effort", p.reasoning_effort)) return e;
    if (Error e = Effort(p.reasoning_effort, "reasoning.effort")) return e;
  }
  return Text(body, "", "user", p.user);
}

// text.format: json_schema (flat: name, schema, strict) or json_object; the schema moves out.
Error Format(Json& body, ChatRequest& r, const ChatLimits& limits) {
  const Json* text = Given(body, "text");
  if (text == nullptr) return std::nullopt;
  if (!text->is_object()) return WrongType("text", "an object", *text);
  const Json* format = Given(*text, "format");
  if (format == nullptr) return std::nullopt;
  if (!format->is_object()) return WrongType("text.format", "an object", *format);
  std::string type;
  if (Error e = Text(*format, "text.format.", "type", type)) return e;
  if (type.empty() || type == "text") return std::nullopt;
  if (type == "json_object") {
    r.schema = std::make_shared<const Json>(Json(Json::Object{{"type", "object"}}));
    r.schema_param = "text.format";
    return std::nullopt;
  }
  if (type != "json_schema") {
    return BadField("text.format.type",
                    "must be json_schema, json_object or text (was \"" + type + "\")");
  }
  std::string name;
  if (Error e = Text(*format, "text.format.", "name", name)) return e;
  bool strict = false;
  if (Error e = Flag(*format, "text.format.", "strict", strict)) return e;
  r.schema_param = "text.format.schema";
  const Json* schema = Given(*format, "schema");
  if (schema == nullptr)
    return BadField(r.schema_param, "is required", "missing_required_parameter");
  if (Error e = CheckSchema(*schema, r.schema_param, limits)) return e;
  Json* owned = body.find("text")->find("format")->find("schema");
  r.schema = std::make_shared<const Json>(std::move(*owned));
  return std::nullopt;
}

// tools (function tools, flat: name, parameters) and a tool_choice that forces one of them.
Error Tools(const Json& body, ChatRequest& r, const ChatLimits& limits) {
  const Json* tools = Given(body, "tools");
  size_t count = 0;
  if (tools != nullptr) {
    if (!tools->is_array()) return WrongType("tools", "an array", *tools);
    count = tools->as_array().size();
    for (size_t i = 0; i < count; ++i) {
      const Json& tool = tools->as_array()[i];
      std::string where = At("tools", i);
      if (!tool.is_object()) return WrongType(where, "a tool object", tool);
      const Json* type = tool.find("type");
      if (type == nullptr || *type != Json("function")) {
        return BadField(where + ".type",
                        "must be \"function\" (built-in tools are not served here)");
      }
      const Json* name = tool.find("name");
      if (name == nullptr || !name->is_string() || name->as_string().empty()) {
        return BadField(where + ".name", "is required: a non-empty string",
                        "missing_required_parameter");
      }
      if (const Json* params = Given(tool, "parameters")) {
        if (Error e = CheckSchema(*params, where + ".parameters", limits)) return e;
      }
    }
  }
  // A name that is there but not a string is a wrong type here (the chat shape calls it missing).
  const Json* choice = Given(body, "tool_choice");
  const Json* choice_type =
      choice != nullptr && choice->is_object() ? Given(*choice, "type") : nullptr;
  if (choice != nullptr && choice->is_object() &&
      (choice_type == nullptr || *choice_type == Json("function"))) {
    std::string name;
    if (Error e = Text(*choice, "tool_choice.", "name", name)) return e;
    if (name.empty()) {
      return BadField("tool_choice.name", "is required: the function to call",
                      "missing_required_parameter");
    }
  }
  std::vector<const Json*> functions;
  for (size_t i = 0; i < count; ++i) functions.push_back(&tools->as_array()[i]);
  return ForceTool(body, functions, "", {"name"}, r);
}

}  // namespace

std::variant<ChatRequest, ApiError> ParseResponsesRequest(Json owned, const ChatLimits& limits) {
  const Json& body = owned;  // read only; Format takes the schema from `owned`
  if (!body.is_object()) return WrongType("body", "a JSON object", body);
  if (Error e = UnknownField(body, kRead, kIgnored)) return *e;
  ChatRequest r;
  if (Error e = Model(body, r.model)) return *e;
  auto conversation = Input(body, limits.max_prompt_bytes);
  if (auto* e = std::get_if<ApiError>(&conversation)) return *e;
  Conversation& c = std::get<Conversation>(conversation);
  r.turns = std::move(c.turns);
  r.prompt = std::move(c.prompt);
  r.instructions = std::move(c.instructions);
  if (Error e = Unsupported(body)) return *e;
  if (Error e = Flag(body, "", "stream", r.stream)) return *e;
  if (Error e = Params(body, r.params)) return *e;
  if (Error e = Extension(body, r, limits)) return *e;
  if (Error e = Tools(body, r, limits)) return *e;
  if (r.tool_name.empty()) {
    if (Error e = Format(owned, r, limits)) return *e;
  } else if (const Json* text = Given(body, "text"); text != nullptr && text->is_object()) {
    const Json* format = Given(*text, "format");
    const Json* type = format != nullptr && format->is_object() ? format->find("type") : nullptr;
    if (type != nullptr && *type != Json("text")) {
      return BadField("text.format", "give one schema: text.format or a forced tool, not both");
    }
  }
  if (Error e = SchemaFromModel(r)) return *e;
  if (Error e = OneSchema(r, "text.format",
                          "set text.format to {\"type\": \"json_schema\", \"name\": ..., "
                          "\"schema\": {...}} or {\"type\": \"json_object\"} (responses.parse "
                          "does with text_format)")) {
    return *e;
  }
  return r;
}

}  // namespace structure::server::openai
