#include "sim/openai/sim_responses.h"

#include <algorithm>
#include <cctype>

#include "base/hash.h"
#include "providers/models.h"
#include "sim/model_checks.h"
#include "sim/thinking.h"
#include "sim/wire_util.h"

namespace structure::sim {
namespace {

// The top-level fields of CreateResponse (openai-openapi, info.version 2.3.0), each with a space
// on both sides.
constexpr std::string_view kKnownFields =
    " background context_management conversation include input instructions max_output_tokens "
    "max_tool_calls metadata model moderation parallel_tool_calls previous_response_id prompt "
    "prompt_cache_key prompt_cache_options prompt_cache_retention reasoning safety_identifier "
    "service_tier store stream stream_options temperature text tool_choice tools top_logprobs "
    "top_p truncation user ";

bool ValidName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  }
  return true;
}

// What the simulator puts in a reasoning item's encrypted_content: bound to the item's id, so
// that content sent back with another id (or changed) is refused as OpenAI refuses it.
std::string EncryptedFor(const std::string& id) {
  return "gAAAAB-sim-" + std::to_string(Fnv1a64(id, 0x5eed));
}

// "rs_X" -> "X"; "" for another id.
std::string ReasoningKey(const std::string& id) {
  return id.rfind("rs_", 0) == 0 ? id.substr(3) : std::string();
}

// "fc_rX" / "msg_rX" -> "X" (an item that followed reasoning rs_X); "" otherwise.
std::string FollowerKey(const std::string& id) {
  for (std::string_view prefix : {"fc_r", "msg_r"}) {
    // fc_rX_2: the second call after rs_X (ids are letters and digits, then "_N").
    if (id.rfind(prefix, 0) == 0)
      return id.substr(prefix.size(), id.find('_', prefix.size()) - prefix.size());
  }
  return "";
}

// The text of a message's content: a string, or parts whose text is input_text, output_text or
// refusal.
std::string MessageText(const Json& content) {
  if (content.is_string()) return content.as_string();
  std::string text;
  if (!content.is_array()) return text;
  for (const Json& part : content.as_array()) {
    if (!part.is_object()) continue;
    std::string t = StringAtKey(part, "text");
    if (t.empty()) t = StringAtKey(part, "refusal");
    if (t.empty()) continue;
    if (!text.empty()) text += "\n";
    text += t;
  }
  return text;
}

Status InvalidItem(const std::string& at, const std::string& what) {
  return InvalidArgument("Invalid '" + at + "': " + what);
}

// The reasoning items of the input must come back whole and in place (see the header).
class ReasoningChain {
 public:
  Status Reasoning(const Json& item, const std::string& at, bool store) {
    std::string id = StringAtKey(item, "id");
    if (id.empty()) return InvalidArgument("Missing required parameter: '" + at + ".id'.");
    const Json* summary = item.find("summary");
    if (!summary || !summary->is_array()) {
      return InvalidArgument("Missing required parameter: '" + at + ".summary'.");
    }
    const Json* enc = item.find("encrypted_content");
    if (!enc || enc->is_null()) {
      if (!store) {
        return Status(Code::kNotFound,
                      "Item with id '" + id +
                          "' not found. Items are not persisted when `store` is set to false. "
                          "Try again with `store` set to true, or remove this item from your "
                          "input.");
      }
    } else if (!enc->is_string() || enc->as_string() != EncryptedFor(id)) {
      return InvalidArgument("The encrypted content for item " + id + " could not be verified.");
    }
    STRUCTURE_RETURN_IF_ERROR(Close());
    open_ = ReasoningKey(id);
    open_id_ = id;
    seen_.push_back(open_);
    return Status::Ok();
  }

  // Any other item: it may be the one the open reasoning item needs, and may need one itself.
  Status Other(const Json& item) {
    std::string id = StringAtKey(item, "id");
    std::string key = FollowerKey(id);
    if (!key.empty() && std::find(seen_.begin(), seen_.end(), key) == seen_.end()) {
      std::string type = StringAtKey(item, "type");
      if (type.empty()) type = "message";
      return InvalidArgument("Item '" + id + "' of type '" + type +
                             "' was provided without its required 'reasoning' item: 'rs_" + key +
                             "'.");
    }
    if (!open_.empty() && key == open_) open_.clear();
    return Close();
  }

  // The end of the input, or another reasoning item: the open one must have had its follower.
  Status Close() {
    if (open_.empty()) return Status::Ok();
    return InvalidArgument("Item '" + open_id_ +
                           "' of type 'reasoning' was provided without its required following "
                           "item.");
  }

 private:
  std::string open_;  // the key of a reasoning item still waiting for its follower
  std::string open_id_;
  std::vector<std::string> seen_;
};

Status ParseInput(const Json& body, bool store, ChatRequest& out) {
  const Json* input = body.find("input");
  if (!input || input->is_null()) return InvalidArgument("Missing required parameter: 'input'.");
  if (input->is_string()) {
    out.messages.push_back({"user", input->as_string()});
    return Status::Ok();
  }
  if (!input->is_array()) {
    return InvalidArgument(
        "Invalid type for 'input': expected one of a string or array of input "
        "items, but got an object instead.");
  }
  ReasoningChain chain;
  size_t i = 0;
  for (const Json& item : input->as_array()) {
    std::string at = "input[" + std::to_string(i++) + "]";
    if (!item.is_object()) return InvalidItem(at, "expected an object.");
    std::string type = StringAtKey(item, "type");
    if (type == "reasoning") {
      STRUCTURE_RETURN_IF_ERROR(chain.Reasoning(item, at, store));
      continue;
    }
    STRUCTURE_RETURN_IF_ERROR(chain.Other(item));
    if (type == "function_call") {
      for (const char* key : {"call_id", "name", "arguments"}) {
        const Json* v = item.find(key);
        if (!v || !v->is_string()) {
          return InvalidArgument("Missing required parameter: '" + at + "." + key + "'.");
        }
      }
      // As chat completions: the call's arguments are the assistant's turn.
      out.messages.push_back({"assistant", StringAtKey(item, "arguments")});
    } else if (type == "function_call_output") {
      const Json* output = item.find("output");
      if (StringAtKey(item, "call_id").empty() || !output) {
        return InvalidArgument("Missing required parameter: '" + at + "." +
                               (output ? "call_id" : "output") + "'.");
      }
      out.messages.push_back({"tool", MessageText(*output)});
    } else if (type.empty() || type == "message") {
      std::string role = StringAtKey(item, "role");
      if (role != "user" && role != "assistant" && role != "system" && role != "developer") {
        return InvalidArgument("Invalid value: '" + role + "'. Supported values are: 'user', " +
                               "'assistant', 'system', and 'developer'.");
      }
      const Json* content = item.find("content");
      if (!content) return InvalidArgument("Missing required parameter: '" + at + ".content'.");
      out.messages.push_back({role == "developer" ? "system" : role, MessageText(*content)});
    } else {
      return InvalidArgument("Invalid value: '" + type + "'. The simulator takes input items of " +
                             "type 'message', 'function_call', 'function_call_output' and " +
                             "'reasoning'.");
    }
  }
  STRUCTURE_RETURN_IF_ERROR(chain.Close());
  if (out.messages.empty()) return InvalidArgument("Invalid 'input': empty array.");
  return Status::Ok();
}

bool MentionsJson(const ChatRequest& request) {
  for (const auto& m : request.messages) {
    std::string lower = m.text;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("json") != std::string::npos) return true;
  }
  return false;
}

// text.format: {type: text} | {type: json_object} | {type: json_schema, name, schema, strict}.
Status ParseTextFormat(const Json& body, ChatRequest& out) {
  const Json* text = body.find("text");
  const Json* format = text && text->is_object() ? text->find("format") : nullptr;
  if (!format || format->is_null()) return Status::Ok();
  std::string type = format->is_object() ? StringAtKey(*format, "type") : "";
  if (type == "text") return Status::Ok();
  if (type == "json_object") {
    if (!MentionsJson(out)) {
      return InvalidArgument(
          "Response input messages must contain the word 'json' in some form to use "
          "'text.format' of type 'json_object'.");
    }
    out.mode = OutputMode::kJsonObject;
    return Status::Ok();
  }
  if (type != "json_schema") {
    return InvalidArgument("Invalid value: '" + type +
                           "'. Supported values are: 'text', 'json_object', and 'json_schema'.");
  }
  const Json* name = format->find("name");
  if (!name || !name->is_string()) {
    return InvalidArgument("Missing required parameter: 'text.format.name'.");
  }
  if (!ValidName(name->as_string())) {
    return InvalidArgument(
        "Invalid 'text.format.name': string does not match pattern. Expected a string that "
        "matches the pattern '^[a-zA-Z0-9_-]+$'.");
  }
  const Json* schema = format->find("schema");
  if (!schema || !schema->is_object()) {
    return InvalidArgument("Missing required parameter: 'text.format.schema'.");
  }
  out.mode = OutputMode::kJsonSchema;
  out.schema = *schema;
  const Json* strict = format->find("strict");
  if (strict && strict->is_bool() && strict->as_bool()) {
    out.checks.push_back({"openai-strict", "text.format '" + name->as_string() + "'", out.schema});
  }
  return Status::Ok();
}

// tools: flat function tools {type: function, name, parameters, strict}; tool_choice "none",
// "auto", "required" or {type: function, name}.
Status ParseTools(const Json& body, ChatRequest& out) {
  const Json* tools = body.find("tools");
  const Json* choice = body.find("tool_choice");
  if (!tools || tools->is_null() || (tools->is_array() && tools->size() == 0)) {
    if (choice && choice->is_object()) {
      return InvalidArgument("Tool choice '" + StringAtKey(*choice, "name") +
                             "' not found in 'tools' parameter.");
    }
    return Status::Ok();
  }
  if (!tools->is_array()) return InvalidArgument("Invalid type for 'tools': expected an array.");
  size_t i = 0;
  for (const Json& tool : tools->as_array()) {
    std::string at = "tools[" + std::to_string(i++) + "]";
    std::string type = tool.is_object() ? StringAtKey(tool, "type") : "";
    if (type != "function") {
      return InvalidArgument("Invalid value: '" + type + "'. The simulator takes tools of type " +
                             "'function' only (at '" + at + ".type').");
    }
    // The chat completions shape nested under `function` is not this API's.
    if (tool.find("function")) {
      return InvalidArgument("Unknown parameter: '" + at + ".function'.");
    }
    const Json* name = tool.find("name");
    if (!name || !name->is_string()) {
      return InvalidArgument("Missing required parameter: '" + at + ".name'.");
    }
    if (!ValidName(name->as_string())) {
      return InvalidArgument("Invalid '" + at +
                             ".name': string does not match pattern. Expected a string that "
                             "matches the pattern '^[a-zA-Z0-9_-]+$'.");
    }
    const Json* params = tool.find("parameters");
    ToolSpec spec{name->as_string(), params && params->is_object() ? *params : Json::MakeObject()};
    // Function tools are strict unless they say otherwise.
    const Json* strict = tool.find("strict");
    if (!strict || strict->is_null() || (strict->is_bool() && strict->as_bool())) {
      out.checks.push_back({"openai-strict", "function '" + spec.name + "'", spec.schema});
    }
    out.tools.push_back(std::move(spec));
  }
  bool call = !out.tools.empty();
  if (choice && choice->is_string()) {
    const std::string& c = choice->as_string();
    if (c == "none") {
      call = false;
    } else if (c != "auto" && c != "required") {
      return InvalidArgument("Invalid value: '" + c +
                             "'. Supported values are: 'none', 'auto', and 'required'.");
    }
  } else if (choice && choice->is_object()) {
    STRUCTURE_RETURN_IF_ERROR(ForceTool(choice->find("name"),
                                        "Missing required parameter: 'tool_choice.name'.",
                                        "Tool choice '", "' not found in 'tools' parameter.", out));
  }
  PreferToolCall(call, out);
  return Status::Ok();
}

// reasoning {effort}; the parameters the family refuses are refused as on chat completions.
Status ParseReasoning(const Json& body, ChatRequest& out) {
  Json check = Json::MakeObject();
  for (const char* key : {"temperature", "top_p", "parallel_tool_calls"}) {
    if (const Json* v = body.find(key); v && !v->is_null()) check.set(key, *v);
  }
  std::string effort;
  if (const Json* r = body.find("reasoning"); r && r->is_object()) {
    if (const Json* e = r->find("effort"); e && !e->is_null()) {
      effort = e->is_string() ? e->as_string() : "";
      const auto& levels = providers::ThinkingLevels();
      if (std::find(levels.begin(), levels.end(), effort) == levels.end()) {
        return InvalidArgument("Invalid value: '" + effort +
                               "'. Supported values are: 'none', 'minimal', 'low', 'medium', "
                               "'high', 'xhigh', and 'max'.");
      }
      check.set("reasoning_effort", effort);
    }
  }
  if (!effort.empty()) {
    out.thinking_tokens = EffortTokens(effort);
  } else if (FamilyOf(providers::ProviderKind::kOpenAi, out.model).thinks_by_default) {
    out.thinking_tokens = EffortTokens("medium");
  }
  out.rejected = CheckOpenAiParameters(check, out.model);
  if (out.rejected && out.rejected->param == "reasoning_effort")
    out.rejected->param = "reasoning.effort";
  return Status::Ok();
}

Status ParseInclude(const Json& body, ChatRequest& out) {
  const Json* include = body.find("include");
  if (!include || include->is_null()) return Status::Ok();
  if (!include->is_array())
    return InvalidArgument("Invalid type for 'include': expected an array.");
  for (const Json& v : include->as_array()) {
    if (v.is_string() && v.as_string() == "reasoning.encrypted_content") {
      out.encrypted_reasoning = true;
    }
  }
  return Status::Ok();
}

Json UsageJson(const Usage& usage, int64_t reasoning_tokens) {
  Json u = Json::MakeObject();
  u.set("input_tokens", usage.input_tokens);
  Json in = Json::MakeObject();
  in.set("cached_tokens", usage.cached_input_tokens);
  u.set("input_tokens_details", std::move(in));
  u.set("output_tokens", usage.output_tokens);
  Json out = Json::MakeObject();
  out.set("reasoning_tokens", reasoning_tokens);
  u.set("output_tokens_details", std::move(out));
  u.set("total_tokens", usage.input_tokens + usage.output_tokens);
  return u;
}

Json FunctionCallItem(const std::string& id, const std::string& call_id, const std::string& name,
                      const std::string& arguments) {
  Json item = Json::MakeObject();
  item.set("id", id);
  item.set("type", "function_call");
  item.set("status", "completed");
  item.set("arguments", arguments);
  item.set("call_id", call_id);
  item.set("name", name);
  return item;
}

}  // namespace

Result<ChatRequest> ParseResponsesRequest(const Json& body) {
  for (const auto& [key, value] : body.as_object()) {
    if (key.empty() || key.find(' ') != std::string::npos ||
        kKnownFields.find(" " + key + " ") == std::string_view::npos) {
      return InvalidArgument("Unknown parameter: '" + key + "'.");
    }
  }
  ChatRequest out;
  out.provider = Provider::kOpenAi;
  out.responses_api = true;
  const Json* model = body.find("model");
  if (!model || !model->is_string() || model->as_string().empty()) {
    return InvalidArgument("Missing required parameter: 'model'.");
  }
  out.model = model->as_string();
  for (const char* key : {"previous_response_id", "conversation", "background"}) {
    if (const Json* v = body.find(key); v && !v->is_null() && !(v->is_bool() && !v->as_bool())) {
      return InvalidArgument("Unsupported parameter: '" + std::string(key) +
                             "': the simulator keeps no responses.");
    }
  }
  const Json* store = body.find("store");
  bool stored = !store || !store->is_bool() || store->as_bool();
  if (const Json* instructions = body.find("instructions");
      instructions && instructions->is_string()) {
    out.messages.push_back({"system", instructions->as_string()});
  }
  STRUCTURE_RETURN_IF_ERROR(ParseInput(body, stored, out));
  STRUCTURE_RETURN_IF_ERROR(ParseTextFormat(body, out));
  STRUCTURE_RETURN_IF_ERROR(ParseTools(body, out));
  STRUCTURE_RETURN_IF_ERROR(ParseReasoning(body, out));
  STRUCTURE_RETURN_IF_ERROR(ParseInclude(body, out));
  if (const Json* v = body.find("max_output_tokens"); v && !v->is_null()) {
    if (!v->is_integral() || v->as_int() < 16) {
      return InvalidArgument(
          "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but "
          "got " +
          ToJson(*v) + " instead.");
    }
    out.max_tokens = v->as_int();
  }
  STRUCTURE_RETURN_IF_ERROR(RejectStreaming(body, "responses"));
  if (const Json* key = body.find("prompt_cache_key"); key && key->is_string()) {
    out.prompt_cache_key = key->as_string();
  }
  return out;
}

http::HttpResponse RenderResponses(const ChatRequest& req, const Answer& a, const Usage& usage,
                                   uint64_t id_seed) {
  std::string key = MakeId("", id_seed + 3);
  bool reasoned = a.thinking_tokens > 0;
  // Items that followed reasoning rs_X are named after it (see the header).
  std::string follows = reasoned ? "r" + key : key;
  Json output = Json::MakeArray();
  if (reasoned) {
    Json r = Json::MakeObject();
    r.set("id", "rs_" + key);
    r.set("type", "reasoning");
    r.set("summary", Json::MakeArray());
    if (req.encrypted_reasoning) r.set("encrypted_content", EncryptedFor("rs_" + key));
    output.push_back(std::move(r));
  }
  if (a.kind == Answer::Kind::kToolCall) {
    output.push_back(FunctionCallItem("fc_" + follows, MakeId("call_", id_seed + 1), a.tool_name,
                                      a.tool_arguments));
    for (size_t i = 0; i < a.more_tool_calls.size(); ++i) {
      output.push_back(FunctionCallItem("fc_" + follows + "_" + std::to_string(i + 1),
                                        MakeId("call_", id_seed + 10 + i),
                                        a.more_tool_calls[i].first, a.more_tool_calls[i].second));
    }
  } else if (a.truncated && a.text.empty() && a.kind == Answer::Kind::kContent) {
    // Reasoning used the whole cap: no message item at all.
  } else {
    Json part = Json::MakeObject();
    if (a.kind == Answer::Kind::kRefusal || a.kind == Answer::Kind::kSafety) {
      part.set("type", "refusal");
      part.set("refusal", a.text);
    } else {
      part.set("type", "output_text");
      part.set("annotations", Json::MakeArray());
      part.set("logprobs", Json::MakeArray());
      part.set("text", a.text);
    }
    Json message = Json::MakeObject();
    message.set("id", "msg_" + follows);
    message.set("type", "message");
    message.set("status", a.truncated ? "incomplete" : "completed");
    message.set("content", ArrayOf(std::move(part)));
    message.set("role", "assistant");
    output.push_back(std::move(message));
  }
  Json body = Json::MakeObject();
  body.set("id", MakeId("resp_", id_seed));
  body.set("object", "response");
  body.set("created_at", UnixNow());
  body.set("status", a.truncated ? "incomplete" : "completed");
  body.set("background", false);
  body.set("error", nullptr);
  if (a.truncated) {
    body.set("incomplete_details", Json(Json::Object{{"reason", Json("max_output_tokens")}}));
  } else {
    body.set("incomplete_details", nullptr);
  }
  body.set("instructions", nullptr);
  body.set("max_output_tokens", req.max_tokens ? Json(*req.max_tokens) : Json());
  body.set("model", req.model);
  body.set("output", std::move(output));
  body.set("parallel_tool_calls", true);
  body.set("previous_response_id", nullptr);
  body.set("store", false);
  body.set("usage", UsageJson(usage, a.thinking_tokens));
  body.set("user", nullptr);
  body.set("metadata", Json::MakeObject());
  auto resp = http::JsonResponse(200, ToJson(body));
  resp.SetHeader("x-request-id", MakeId("req_", id_seed + 2));
  resp.SetHeader("openai-version", "2020-10-01");
  resp.SetHeader("openai-processing-ms", "1");
  return resp;
}

}  // namespace structure::sim
