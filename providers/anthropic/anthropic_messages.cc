#include "providers/anthropic/anthropic_messages.h"

#include "base/base64.h"
#include "base/media_type.h"
#include "providers/call_check.h"
#include "providers/models.h"
#include "providers/prompt_cache.h"
#include "providers/wire_util.h"

namespace structure::providers::anthropic_messages {
namespace {

constexpr std::string_view kProvider = "anthropic";

// A tool whose input_schema is a placeholder for the shared schema text (see BuildRequest).
Json Tool(const std::string& name, const std::string& description, bool strict) {
  Json t = Json::MakeObject();
  t.set("name", name);
  t.set("description", description);
  t.set("input_schema", Json());
  if (strict) t.set("strict", true);
  return t;
}

bool HasVisibleText(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") != std::string_view::npos;
}

Json TextBlock(const std::string& text) {
  return Json(Json::Object{{"type", "text"}, {"text", text}});
}

// A file's block: a PDF as a "document" with a base64 source and the file name as its title,
// an image as an "image" with a base64 source, a file with text as a "text" block.
Json FileBlock(const FilePart& f) {
  if (f.text) return TextBlock(*f.text);
  Json source(Json::Object{{"type", "base64"},
                           {"media_type", f.media_type},
                           {"data", Base64Encode(f.data ? *f.data : std::string())}});
  Json block(Json::Object{{"type", f.media_type == kPdf ? "document" : "image"},
                          {"source", std::move(source)}});
  if (f.media_type == kPdf && !f.name.empty()) block.set("title", f.name);
  return block;
}

// Anthropic needs alternating roles; consecutive tool results share one user message. The API
// rejects a text block without visible text and a message without content, so an empty
// assistant turn (a reply cut off before any text) is left out, and the user text around it
// merges into one user message.
Json Messages(const ProviderCall& call, bool replay_thinking) {
  Json msgs = Json::MakeArray();
  for (const Turn& t : call.turns) {
    if (t.role == Role::kAssistant) {
      Json content = Json::MakeArray();
      // Thinking blocks go back first and unchanged: the API checks their signatures and, with
      // thinking on, refuses a tool-use turn that does not start with one.
      for (const Thought& th : t.thoughts) {
        if (!replay_thinking) break;
        content.push_back(
            th.redacted
                ? Json(Json::Object{{"type", "redacted_thinking"}, {"data", th.text}})
                : Json(Json::Object{
                      {"type", "thinking"}, {"thinking", th.text}, {"signature", th.signature}}));
      }
      if (HasVisibleText(t.text)) content.push_back(TextBlock(t.text));
      for (const ToolCall& c : t.tool_calls) {
        content.push_back(Json(Json::Object{{"type", "tool_use"},
                                            {"id", c.id},
                                            {"name", c.name},
                                            {"input", ArgumentsObject(c.arguments)}}));
      }
      if (content.size() == 0) continue;
      msgs.push_back(Json(Json::Object{{"role", "assistant"}, {"content", std::move(content)}}));
      continue;
    }
    for (const FilePart& f : t.files) AppendToUserTurn(msgs, "content", FileBlock(f));
    if (t.role == Role::kUser && !t.files.empty() && !HasVisibleText(t.text)) continue;
    Json block = t.role == Role::kUser ? TextBlock(t.text)
                                       : Json(Json::Object{{"type", "tool_result"},
                                                           {"tool_use_id", t.tool_call_id},
                                                           {"content", t.text},
                                                           {"is_error", t.is_error}});
    AppendToUserTurn(msgs, "content", std::move(block));
  }
  return msgs;
}

FinishKind MapStop(std::string_view reason) {
  if (reason == "max_tokens" || reason == "model_context_window_exceeded") {
    return FinishKind::kLength;
  }
  if (reason == "tool_use") return FinishKind::kToolUse;
  if (reason == "refusal") return FinishKind::kRefusal;
  return FinishKind::kStop;
}

}  // namespace

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint) {
  STRUCTURE_RETURN_IF_ERROR(CheckCall(call));
  ModelFamily family = FamilyFor(endpoint, call.model);
  auto th = ResolveThinking(family, call.model, call.thinking);
  if (!th.ok()) return th.status();
  const bool thinking = th->on();
  Json body = Json::MakeObject();
  body.set("model", call.model);
  body.set("max_tokens", call.max_tokens);
  if (ShouldMarkCachePrefix(call, family)) {
    // The stable prefix (tools, then the system prompt) is cached up to this breakpoint; the
    // user's turns that follow are not.
    Json block = TextBlock(call.system);
    block.set("cache_control", Json(Json::Object{{"type", "ephemeral"}}));
    Json system = Json::MakeArray();
    system.push_back(std::move(block));
    body.set("system", std::move(system));
  } else if (!call.system.empty()) {
    body.set("system", call.system);
  }
  body.set("messages", Messages(call, family.replay != ThinkingReplay::kNone));
  // With thinking on, temperature may only be 1 and top_p only 0.95 to 1: they are left out.
  if (call.temperature && family.temperature && !thinking) {
    body.set("temperature", *call.temperature);
  }
  if (call.top_p && family.top_p && !thinking) body.set("top_p", *call.top_p);
  if (!call.user.empty()) body.set("metadata", Json(Json::Object{{"user_id", call.user}}));
  // A level is adaptive thinking guided by output_config.effort (the form newer models take), a
  // budget is manual extended thinking (the only form before the 4.6 models).
  switch (th->form) {
    case WireThinking::Form::kLevel:
    case WireThinking::Form::kOn:
      body.set("thinking", Json(Json::Object{{"type", "adaptive"}}));
      break;
    case WireThinking::Form::kBudget:
      body.set("thinking", Json(Json::Object{{"type", "enabled"}, {"budget_tokens", th->budget}}));
      break;
    case WireThinking::Form::kOff:
      body.set("thinking", Json(Json::Object{{"type", "disabled"}}));
      break;
    case WireThinking::Form::kUnset:
      break;
  }

  Json tools = Json::MakeArray();
  Json output_config = Json::MakeObject();
  if (call.final_tool) {
    tools.push_back(Tool(call.final_tool_name, call.final_tool_description, call.strict));
  } else if (call.schema->is_object()) {
    output_config.set("format", Json(Json::Object{{"type", "json_schema"}, {"schema", Json()}}));
  }
  if (th->form == WireThinking::Form::kLevel) output_config.set("effort", th->level);
  if (output_config.size() > 0) body.set("output_config", std::move(output_config));
  if (call.need == NeedChannel::kTool) {
    tools.push_back(Tool(call.need_tool_name,
                         "Call this instead of answering when the input lacks what a required "
                         "field needs.",
                         call.strict));
  }
  if (tools.size() > 0) {
    if (thinking) {
      // With thinking on, the API takes only tool_choice auto (or none): the system prompt asks
      // for the final tool, and the loop nudges an answer in prose.
      body.set("tool_choice", Json(Json::Object{{"type", "auto"}}));
    } else if (call.final_tool && tools.size() == 1) {
      body.set("tool_choice", Json(Json::Object{{"type", "tool"}, {"name", call.final_tool_name}}));
    } else {
      body.set("tool_choice", Json(Json::Object{{"type", call.final_tool ? "any" : "auto"}}));
    }
    body.set("tools", std::move(tools));
  }

  HttpHeaders extra;
  if (!endpoint.api_key.empty()) extra.emplace_back("x-api-key", endpoint.api_key);
  extra.emplace_back("anthropic-version", endpoint.anthropic_version);
  // The schemas are written from their shared text into the placeholders left above.
  BodySplices splices;
  splices.AddToolSchemas(body.find("tools"), {"input_schema"}, call);
  if (!call.final_tool)
    splices.Add(MemberAt(body, {"output_config", "format", "schema"}), call.schema);
  return JsonPost(endpoint, "/v1/messages", std::move(extra), body, splices.list());
}

Result<ProviderReply> ParseReply(const HttpResponse& response) {
  auto body = ParseReplyBody(response, kProvider);
  if (!body.ok()) return body.status();
  const Json& root = *body;
  if (StringAt(root, "type") == "error") {
    return Unavailable("anthropic reply: error body with a 2xx status");
  }
  const Json* content = root.find("content");
  if (!content || !content->is_array()) {
    return Unavailable("anthropic reply: no content array in the body");
  }
  ProviderReply reply;
  reply.model = StringAt(root, "model");
  for (const Json& block : content->as_array()) {
    std::string type = StringAt(block, "type");
    if (type == "text") {
      reply.content += StringAt(block, "text");
    } else if (type == "thinking") {
      reply.thoughts.push_back({StringAt(block, "thinking"), StringAt(block, "signature"), false});
    } else if (type == "redacted_thinking") {
      reply.thoughts.push_back({StringAt(block, "data"), "", true});
    } else if (type == "tool_use") {
      ToolCall tc;
      tc.id = StringAt(block, "id");
      tc.name = StringAt(block, "name");
      tc.arguments = ArgumentsText(block.find("input"));
      reply.tool_calls.push_back(std::move(tc));
    }
  }
  reply.finish = MapStop(StringAt(root, "stop_reason"));
  if (reply.finish == FinishKind::kRefusal) {
    // A refusal may come with no text at all; stop_details then says why.
    reply.refusal = reply.content;
    const Json* details = root.find("stop_details");
    if (reply.refusal.empty() && details && details->is_object()) {
      reply.refusal = StringAt(*details, "explanation");
    }
  }
  bool reasoning_reported = false;
  if (const Json* usage = root.find("usage"); usage && usage->is_object()) {
    // input_tokens counts only what follows the last cache breakpoint; the prompt is all three.
    reply.usage.cached_input_tokens = IntAt(*usage, "cache_read_input_tokens");
    reply.usage.cache_write_tokens = IntAt(*usage, "cache_creation_input_tokens");
    reply.usage.input_tokens = IntAt(*usage, "input_tokens") + reply.usage.cached_input_tokens +
                               reply.usage.cache_write_tokens;
    reply.usage.output_tokens = IntAt(*usage, "output_tokens");
    // The thinking share of output_tokens, published with the API's usage in 2026; replies of
    // older models leave it out, and their thinking is then unreported.
    if (const Json* d = usage->find("output_tokens_details"); d && d->is_object()) {
      reasoning_reported = d->find("thinking_tokens") != nullptr;
      reply.usage.reasoning_tokens = IntAt(*d, "thinking_tokens");
    }
  }
  NoteReasoningCount(reply, reasoning_reported);
  return reply;
}

}  // namespace structure::providers::anthropic_messages
