#include "providers/openai/openai_chat.h"

#include "base/json_writer.h"
#include "base/media_type.h"
#include "providers/call_check.h"
#include "providers/file_parts.h"
#include "providers/http_status.h"
#include "providers/models.h"
#include "providers/openai/openai_chat_reply.h"
#include "providers/openai/openai_responses.h"
#include "providers/prompt_cache.h"
#include "providers/wire_util.h"

namespace structure::providers {
namespace {

// A function tool whose parameters are `schema`'s shared text.
void WriteFunctionTool(JsonWriter& w, const std::string& name, const std::string& description,
                       const SharedJson& schema, bool strict) {
  w.BeginObject();
  w.Member("type", "function");
  w.Key("function").BeginObject();
  w.Member("name", name);
  w.Member("description", description);
  w.Key("parameters").Raw(schema.text());
  if (strict) w.Member("strict", true);
  w.EndObject();
  w.EndObject();
}

void WriteToolCalls(JsonWriter& w, const std::vector<ToolCall>& calls) {
  w.Key("tool_calls").BeginArray();
  for (const ToolCall& c : calls) {
    w.BeginObject();
    w.Member("id", c.id);
    w.Member("type", "function");
    w.Key("function").BeginObject();
    w.Member("name", c.name);
    w.Member("arguments", c.arguments);
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
}

// A user turn with files: one content part per file, then the text. PDFs as "file" parts with
// the file name and a data URL, images as "image_url" parts with a data URL, files with text
// (a text file, a PDF's text layer) as "text" parts.
void WriteUserParts(JsonWriter& w, const Turn& t) {
  w.Key("content").BeginArray();
  for (const FilePart& f : t.files) {
    w.BeginObject();
    if (f.text) {
      w.Member("type", "text");
      w.Member("text", *f.text);
    } else if (f.media_type == kPdf) {
      w.Member("type", "file");
      w.Key("file").BeginObject();
      w.Member("filename", f.name);
      w.Member("file_data", DataUrl(f));
      w.EndObject();
    } else {
      w.Member("type", "image_url");
      w.Key("image_url").BeginObject();
      w.Member("url", DataUrl(f));
      w.EndObject();
    }
    w.EndObject();
  }
  if (!t.text.empty()) {
    w.BeginObject();
    w.Member("type", "text");
    w.Member("text", t.text);
    w.EndObject();
  }
  w.EndArray();
}

// `mark_cache`: the system prompt goes as one text part with cache_control, the form OpenRouter
// passes on to providers that cache only what is marked (Claude).
void WriteMessages(JsonWriter& w, const ProviderCall& call, bool mark_cache) {
  w.Key("messages").BeginArray();
  if (mark_cache) {
    w.BeginObject();
    w.Member("role", "system");
    w.Key("content").BeginArray();
    w.BeginObject();
    w.Member("type", "text");
    w.Member("text", call.system);
    w.Key("cache_control").BeginObject();
    w.Member("type", "ephemeral");
    w.EndObject();
    w.EndObject();
    w.EndArray();
    w.EndObject();
  } else if (!call.system.empty()) {
    w.BeginObject();
    w.Member("role", "system");
    w.Member("content", call.system);
    w.EndObject();
  }
  for (const Turn& t : call.turns) {
    w.BeginObject();
    switch (t.role) {
      case Role::kUser:
        w.Member("role", "user");
        if (t.files.empty()) {
          w.Member("content", t.text);
        } else {
          WriteUserParts(w, t);
        }
        break;
      case Role::kAssistant:
        w.Member("role", "assistant");
        if (t.text.empty() && !t.tool_calls.empty()) {
          w.Key("content").Null();
        } else {
          w.Member("content", t.text);
        }
        if (!t.tool_calls.empty()) WriteToolCalls(w, t.tool_calls);
        break;
      case Role::kTool:
        w.Member("role", "tool");
        w.Member("tool_call_id", t.tool_call_id);
        w.Member("content", t.is_error ? "Error: " + t.text : t.text);
        break;
    }
    w.EndObject();
  }
  w.EndArray();
}

FinishKind MapFinish(std::string_view reason) {
  if (reason == "length") return FinishKind::kLength;
  if (reason == "tool_calls" || reason == "function_call") return FinishKind::kToolUse;
  if (reason == "content_filter") return FinishKind::kSafety;
  return FinishKind::kStop;
}

// The reasoning field a family is sent: OpenAI's reasoning_effort, or OpenRouter's reasoning
// object, which it translates for each upstream.
void WriteReasoning(JsonWriter& w, const WireThinking& t, bool reasoning_object) {
  if (t.form == WireThinking::Form::kUnset) return;
  if (!reasoning_object) {
    if (t.form == WireThinking::Form::kLevel) w.Member("reasoning_effort", t.level);
    return;
  }
  w.Key("reasoning").BeginObject();
  if (t.form == WireThinking::Form::kBudget)
    w.Member("max_tokens", t.budget);
  else if (t.form == WireThinking::Form::kLevel)
    w.Member("effort", t.level);
  else if (t.form == WireThinking::Form::kOff)
    w.Member("effort", "none");
  else
    w.Member("enabled", true);
  w.EndObject();
}

// Where the schema of a schema-mode call goes (its shared text), or JSON mode without one.
void WriteSchemaField(JsonWriter& w, const ProviderCall& call, const OpenAiDialect& dialect) {
  if (!call.schema->is_object()) {
    w.Key("response_format").BeginObject();
    w.Member("type", "json_object");
    w.EndObject();
    return;
  }
  switch (dialect.schema_field) {
    case SchemaField::kResponseFormat:
      w.Key("response_format").BeginObject();
      w.Member("type", "json_schema");
      w.Key("json_schema").BeginObject();
      w.Member("name", call.schema_name);
      if (dialect.strict && call.strict) w.Member("strict", true);
      w.Key("schema").Raw(call.schema.text());
      w.EndObject();
      w.EndObject();
      break;
    case SchemaField::kJsonObjectSchema:
      w.Key("response_format").BeginObject();
      w.Member("type", "json_object");
      w.Key("schema").Raw(call.schema.text());
      w.EndObject();
      break;
    case SchemaField::kTopLevelJsonSchema:
      w.Key("json_schema").Raw(call.schema.text());
      break;
  }
}

// The final tool and/or the need tool, and how the model must choose among them.
void WriteTools(JsonWriter& w, const ProviderCall& call, const OpenAiDialect& dialect,
                const ModelFamily& family) {
  bool need_tool = call.need == NeedChannel::kTool;
  if (!call.final_tool && !need_tool) return;
  if (call.final_tool && !need_tool) {
    w.Key("tool_choice").BeginObject();
    w.Member("type", "function");
    w.Key("function").BeginObject();
    w.Member("name", call.final_tool_name);
    w.EndObject();
    w.EndObject();
  } else {
    w.Member("tool_choice", call.final_tool ? "required" : "auto");
  }
  // Off, so the answer comes as one call; families that refuse the field (o-series) do not
  // get it.
  if (family.parallel_tool_calls) w.Member("parallel_tool_calls", false);
  bool strict = dialect.strict && call.strict;
  w.Key("tools").BeginArray();
  if (call.final_tool) {
    WriteFunctionTool(w, call.final_tool_name, call.final_tool_description, call.schema, strict);
  }
  if (need_tool) {
    WriteFunctionTool(w, call.need_tool_name,
                      "Call this instead of answering when the input lacks what a required "
                      "field needs.",
                      call.need_schema, strict);
  }
  w.EndArray();
}

}  // namespace

Result<HttpRequest> BuildOpenAiStyleRequest(const ProviderCall& call, const Endpoint& endpoint,
                                            const OpenAiDialect& dialect) {
  STRUCTURE_RETURN_IF_ERROR(CheckCall(call));
  ModelFamily family = FamilyFor(endpoint, call.model);
  auto thinking = ResolveThinking(family, call.model, call.thinking);
  if (!thinking.ok()) return thinking.status();
  // Written straight as text: the schemas from their shared text, no tree per call.
  std::string body;
  body.reserve(512 + call.system.size() + call.schema.text().size() +
               (call.need == NeedChannel::kTool ? call.need_schema.text().size() : 0) +
               (call.turns.empty() ? 0 : call.turns.back().text.size()));
  JsonWriter w(body);
  w.BeginObject();
  w.Member("model", call.model);
  WriteMessages(w, call, ShouldMarkCachePrefix(call, family));
  w.Member(family.cap_field.empty() ? "max_tokens" : family.cap_field, call.max_tokens);
  if (call.temperature && family.temperature) w.Key("temperature").Double(*call.temperature);
  if (call.top_p && family.top_p) w.Key("top_p").Double(*call.top_p);
  if (call.seed) w.Member("seed", *call.seed);
  if (!call.user.empty()) w.Member("user", call.user);
  WriteReasoning(w, *thinking, dialect.reasoning_object);
  // Calls on one schema share their prefix; the key sends them to the same cache.
  if (dialect.prompt_cache_key && !call.cache_key.empty()) {
    w.Member("prompt_cache_key", call.cache_key);
  }
  if (!call.final_tool) WriteSchemaField(w, call, dialect);
  WriteTools(w, call, dialect, family);
  if (dialect.require_parameters) {
    w.Key("provider").BeginObject();
    w.Member("require_parameters", true);
    w.EndObject();
  }
  w.EndObject();
  return JsonPostText(endpoint, "/v1/chat/completions", BearerAuth(endpoint), std::move(body));
}

namespace {

// The reply the parts make: the finish reason and usage interpreted.
Result<ProviderReply> FinishReply(ChatReplyParts parts, const OpenAiDialect& dialect) {
  if (parts.finish == "error") {
    return Unavailable(std::string(dialect.provider) + " reply: upstream error in the choice");
  }
  ProviderReply& reply = parts.reply;
  reply.finish = MapFinish(parts.finish);
  if (!reply.refusal.empty()) reply.finish = FinishKind::kRefusal;
  // A forced tool choice ends with "stop" although the answer is a tool call.
  if (reply.finish == FinishKind::kStop && !reply.tool_calls.empty()) {
    reply.finish = FinishKind::kToolUse;
  }
  bool reasoning_reported = parts.usage && UsageFromFields(*parts.usage, reply.usage);
  NoteReasoningCount(reply, reasoning_reported);
  return std::move(reply);
}

}  // namespace

Result<ProviderReply> ParseOpenAiStyleReply(const HttpResponse& response,
                                            const OpenAiDialect& dialect) {
  // The usual reply is read without a tree; anything else (errors, other shapes) below.
  if (response.error == TransportError::kNone && response.status >= 200 && response.status < 300) {
    if (auto parts = ReadUsualChatReply(response.body)) {
      return FinishReply(std::move(*parts), dialect);
    }
  }
  auto body = ParseReplyBody(response, dialect.provider);
  if (!body.ok()) return body.status();
  const Json& root = *body;
  // A call the Responses API answered (openai_responses.h): batch results and live replies come
  // here whichever API the request went to.
  if (openai_responses::IsResponseObject(root)) return openai_responses::ReplyFromTree(root);
  // OpenRouter reports some upstream failures inside a 200 body.
  if (const Json* err = root.find("error"); err && err->is_object()) {
    HttpResponse synthetic;
    synthetic.status = static_cast<int>(IntAt(*err, "code"));
    if (synthetic.status < 400) synthetic.status = 502;
    return StatusFromHttp(synthetic, dialect.provider, StringAt(*err, "message"),
                          StringAt(*err, "type"));
  }
  auto parts = ChatPartsFromTree(root);
  if (!parts) return Unavailable(std::string(dialect.provider) + " reply: no choices in the body");
  return FinishReply(std::move(*parts), dialect);
}

namespace openai_chat {

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint) {
  if (ApiFor(endpoint, call.model) == OpenAiApi::kResponses) {
    return openai_responses::BuildRequest(call, endpoint);
  }
  return BuildOpenAiStyleRequest(call, endpoint, OpenAiDialect{});
}

Result<ProviderReply> ParseReply(const HttpResponse& response) {
  return ParseOpenAiStyleReply(response, OpenAiDialect{});
}

}  // namespace openai_chat
}  // namespace structure::providers
