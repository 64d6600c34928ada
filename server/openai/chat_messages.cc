#include "server/openai/chat_messages.h"

#include "pipeline/files/files_json.h"
#include "server/openai/request_fields.h"

namespace structure::server::openai {
namespace {

// What a non-text part is, for the refusal that names it; "" for a part type nobody knows.
std::string NonTextKind(const std::string& type) {
  if (type == "image_url" || type == "input_image" || type == "image") return "image";
  if (type == "input_audio" || type == "audio") return "audio";
  if (type == "file" || type == "input_file") return "file";
  return "";
}

// A chat "file" part ({"file": {"filename", "file_data": data URL}}) or "image_url" part
// ({"image_url": {"url": data URL}}) as an attached file.
std::variant<InputFile, ApiError> FilePart(const Json& part, const std::string& t,
                                           const std::string& where) {
  const char* key = t == "file" ? "file" : "image_url";
  const Json* inner = part.find(key);
  if (inner == nullptr || !inner->is_object())
    return BadField(where + "." + key, "must be an object", "invalid_type");
  if (t == "file" && inner->find("file_id") != nullptr && inner->find("file_data") == nullptr)
    return BadField(where + ".file.file_id",
                    "files by id need the Files API, which this endpoint does not have: send "
                    "the bytes as file_data (data:application/pdf;base64,...)",
                    "unsupported_content");
  const char* data_key = t == "file" ? "file_data" : "url";
  const Json* data = inner->find(data_key);
  std::string param = where + "." + key + "." + data_key;
  if (data == nullptr || !data->is_string())
    return BadField(param, "is required: a base64 data URL", "missing_required_parameter");
  if (data->as_string().rfind("data:", 0) != 0)
    return BadField(param,
                    "must be a base64 data URL (data:<media type>;base64,...): this endpoint "
                    "fetches no URLs",
                    "invalid_value");
  auto file = pipeline::ParseDataUrl(data->as_string(), param);
  if (!file.ok())
    return BadField(param, file.status().message().substr(param.size() + 2), "invalid_value");
  if (t == "file") {
    if (const Json* name = inner->find("filename"); name != nullptr && name->is_string())
      file->name = name->as_string();
  }
  return std::move(*file);
}

}  // namespace

std::variant<std::string, ApiError> ContentText(const Json& content, const std::string& param,
                                                std::vector<InputFile>* files) {
  if (content.is_string()) return content.as_string();
  if (!content.is_array())
    return WrongType(param, "a string or an array of content parts", content);
  std::string text;
  for (size_t j = 0; j < content.as_array().size(); ++j) {
    const Json& part = content.as_array()[j];
    std::string where = At(param, j);
    if (!part.is_object()) return WrongType(where, "a content part object", part);
    const Json* type = part.find("type");
    if (type == nullptr || !type->is_string()) {
      return BadField(where + ".type", "is required: \"text\"", "missing_required_parameter");
    }
    const std::string& t = type->as_string();
    if (files != nullptr && (t == "file" || t == "image_url")) {
      auto file = FilePart(part, t, where);
      if (auto* e = std::get_if<ApiError>(&file)) return *e;
      files->push_back(std::get<InputFile>(std::move(file)));
      continue;
    }
    std::string kind = NonTextKind(t);
    if (!kind.empty()) {
      return BadField(where, kind + " parts are not supported: this endpoint reads text only",
                      "unsupported_content");
    }
    const bool text_part = t == "text" || t == "input_text" || t == "output_text";
    const char* key = text_part ? "text" : t == "refusal" ? "refusal" : nullptr;
    if (key == nullptr) {
      return BadField(where + ".type", "unknown content part type \"" + t + "\" (text only)");
    }
    const Json* value = part.find(key);
    if (value == nullptr || !value->is_string()) {
      return BadField(where + "." + key, "must be a string", "invalid_type");
    }
    if (!text.empty()) text += "\n";
    text += value->as_string();
  }
  return text;
}

namespace {

// An assistant's tool calls as text: the arguments of each, one per line.
std::variant<std::string, ApiError> ToolCallsText(const Json& calls, const std::string& param) {
  if (!calls.is_array()) return WrongType(param, "an array", calls);
  std::string text;
  for (size_t j = 0; j < calls.as_array().size(); ++j) {
    const Json& call = calls.as_array()[j];
    const Json* fn = call.is_object() ? call.find("function") : nullptr;
    const Json* args = fn != nullptr && fn->is_object() ? fn->find("arguments") : nullptr;
    if (args == nullptr || !args->is_string()) {
      return BadField(At(param, j) + ".function.arguments", "must be a string", "invalid_type");
    }
    if (!text.empty()) text += "\n";
    text += args->as_string();
  }
  return text;
}

}  // namespace

std::variant<Conversation, ApiError> ParseMessages(const Json* messages, size_t max_prompt_bytes) {
  if (messages == nullptr || messages->is_null()) {
    return BadField("messages", "is required", "missing_required_parameter");
  }
  if (!messages->is_array()) return WrongType("messages", "an array", *messages);
  if (messages->as_array().empty()) {
    return BadField("messages", "must hold at least one message", "empty_array");
  }
  Conversation out;
  size_t bytes = 0;
  for (size_t i = 0; i < messages->as_array().size(); ++i) {
    const Json& m = messages->as_array()[i];
    std::string where = At("messages", i);
    if (!m.is_object()) return WrongType(where, "a message object", m);
    const Json* role = m.find("role");
    if (role == nullptr || !role->is_string()) {
      return BadField(where + ".role", "is required: system, developer, user, assistant or tool",
                      "missing_required_parameter");
    }
    const std::string& r = role->as_string();
    if (r != "system" && r != "developer" && r != "user" && r != "assistant" && r != "tool") {
      return BadField(where + ".role",
                      "must be system, developer, user, assistant or tool (was \"" + r + "\")");
    }
    const Json* content = m.find("content");
    std::string text;
    if (content != nullptr && !content->is_null()) {
      auto t = ContentText(*content, where + ".content", r == "user" ? &out.files : nullptr);
      if (auto* e = std::get_if<ApiError>(&t)) return *e;
      text = std::get<std::string>(std::move(t));
    } else if (r != "assistant") {
      return BadField(where + ".content", "is required", "missing_required_parameter");
    }
    if (r == "assistant") {
      if (const Json* calls = m.find("tool_calls"); calls != nullptr && !calls->is_null()) {
        auto t = ToolCallsText(*calls, where + ".tool_calls");
        if (auto* e = std::get_if<ApiError>(&t)) return *e;
        AppendParagraph(text, std::get<std::string>(t));
      }
    }
    bytes += text.size();
    if (bytes > max_prompt_bytes) {
      ApiError e =
          BadField("messages",
                   "the text of the messages is over the limit of " +
                       std::to_string(max_prompt_bytes) + " bytes (server.max_prompt_bytes)",
                   "too_large");
      e.status = 413;
      return e;
    }
    if (r == "system" || r == "developer") {
      AppendParagraph(out.instructions, text);
      continue;
    }
    ConversationTurn turn;
    turn.role = r == "assistant" ? TurnRole::kAssistant : TurnRole::kUser;
    if (r == "tool") {
      const Json* id = m.find("tool_call_id");
      text = "Result of tool call " + (id != nullptr && id->is_string() ? id->as_string() : "") +
             ": " + text;
    } else if (r == "user") {
      AppendParagraph(out.prompt, text);
    }
    turn.text = std::move(text);
    out.turns.push_back(std::move(turn));
  }
  if (out.prompt.empty() && out.files.empty()) {
    return BadField("messages", "must hold a user message with text (the input to structure)",
                    "missing_user_message");
  }
  return out;
}

}  // namespace structure::server::openai
