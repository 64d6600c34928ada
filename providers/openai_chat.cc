#include "providers/openai_chat.h"

#include "providers/call_check.h"
#include "providers/http_status.h"
#include "providers/models.h"
#include "providers/prompt_cache.h"
#include "providers/wire_util.h"

namespace structure::providers {
namespace {

// A function tool whose parameters are a placeholder for the shared schema text (see
// BuildOpenAiStyleRequest).
Json FunctionTool(const std::string& name, const std::string& description, bool strict) {
  Json fn = Json::MakeObject();
  fn.set("name", name);
  fn.set("description", description);
  fn.set("parameters", Json());
  if (strict) fn.set("strict", true);
  Json tool = Json::MakeObject();
  tool.set("type", "function");
  tool.set("function", std::move(fn));
  return tool;
}

// `mark_cache`: the system prompt goes as one text part with cache_control, the form OpenRouter
// passes on to providers that cache only what is marked (Claude).
Json Messages(const ProviderCall& call, bool mark_cache) {
  Json msgs = Json::MakeArray();
  if (mark_cache) {
    Json part(Json::Object{{"type", "text"},
                           {"text", call.system},
                           {"cache_control", Json(Json::Object{{"type", "ephemeral"}})}});
    msgs.push_back(
        Json(Json::Object{{"role", "system"}, {"content", Json(Json::Array{std::move(part)})}}));
  } else if (!call.system.empty()) {
    msgs.push_back(Json(Json::Object{{"role", "system"}, {"content", call.system}}));
  }
  for (const Turn& t : call.turns) {
    Json m = Json::MakeObject();
    switch (t.role) {
      case Role::kUser:
        m.set("role", "user");
        m.set("content", t.text);
        break;
      case Role::kAssistant: {
        m.set("role", "assistant");
        m.set("content", t.text.empty() && !t.tool_calls.empty() ? Json() : Json(t.text));
        if (!t.tool_calls.empty()) {
          Json calls = Json::MakeArray();
          for (const ToolCall& c : t.tool_calls) {
            Json fn(Json::Object{{"name", c.name}, {"arguments", c.arguments}});
            calls.push_back(Json(
                Json::Object{{"id", c.id}, {"type", "function"}, {"function", std::move(fn)}}));
          }
          m.set("tool_calls", std::move(calls));
        }
        break;
      }
      case Role::kTool:
        m.set("role", "tool");
        m.set("tool_call_id", t.tool_call_id);
        m.set("content", t.is_error ? "Error: " + t.text : t.text);
        break;
    }
    msgs.push_back(std::move(m));
  }
  return msgs;
}

FinishKind MapFinish(std::string_view reason) {
  if (reason == "length") return FinishKind::kLength;
  if (reason == "tool_calls" || reason == "function_call") return FinishKind::kToolUse;
  if (reason == "content_filter") return FinishKind::kSafety;
  return FinishKind::kStop;
}

// The reasoning field a family is sent: OpenAI's reasoning_effort, or OpenRouter's reasoning
// object, which it translates for each upstream.
void SetReasoning(const WireThinking& t, bool reasoning_object, Json& body) {
  if (t.form == WireThinking::Form::kUnset) return;
  if (!reasoning_object) {
    if (t.form == WireThinking::Form::kLevel) body.set("reasoning_effort", t.level);
    return;
  }
  Json reasoning = Json::MakeObject();
  if (t.form == WireThinking::Form::kBudget)
    reasoning.set("max_tokens", t.budget);
  else if (t.form == WireThinking::Form::kLevel)
    reasoning.set("effort", t.level);
  else if (t.form == WireThinking::Form::kOff)
    reasoning.set("effort", "none");
  else
    reasoning.set("enabled", true);
  body.set("reasoning", std::move(reasoning));
}

// The text of a part list: the "text" members of its {"type":"text"} parts, or the list itself
// when it is a string.
std::string PartsText(const Json& parts) {
  if (parts.is_string()) return parts.as_string();
  std::string text;
  if (!parts.is_array()) return text;
  for (const Json& part : parts.as_array()) {
    if (part.is_object() && StringAt(part, "type") == "text") text += StringAt(part, "text");
  }
  return text;
}

// `message.content` is text, null, or (Mistral and other compatible servers) a list of parts:
// the "text" parts are the answer, "thinking" parts (their own list of text parts) are kept as
// thoughts, anything else is skipped.
void ReadContent(const Json& content, ProviderReply& reply) {
  if (content.is_string()) {
    reply.content = content.as_string();
    return;
  }
  if (!content.is_array()) return;
  for (const Json& part : content.as_array()) {
    if (!part.is_object()) continue;
    std::string type = StringAt(part, "type");
    if (type == "text") {
      reply.content += StringAt(part, "text");
    } else if (type == "thinking") {
      const Json* thinking = part.find("thinking");
      std::string text = thinking ? PartsText(*thinking) : std::string();
      if (!text.empty()) reply.thoughts.push_back({std::move(text), "", false});
    }
  }
}

void ReadMessage(const Json& msg, ProviderReply& reply) {
  if (const Json* content = msg.find("content")) ReadContent(*content, reply);
  reply.refusal = StringAt(msg, "refusal");
  // Reasoning text next to the answer: DeepSeek and xAI "reasoning_content", Groq and OpenRouter
  // "reasoning".
  for (const char* key : {"reasoning_content", "reasoning"}) {
    if (std::string text = StringAt(msg, key); !text.empty()) {
      reply.thoughts.push_back({std::move(text), "", false});
    }
  }
  const Json* calls = msg.find("tool_calls");
  if (!calls || !calls->is_array()) return;
  for (const Json& c : calls->as_array()) {
    const Json* fn = c.find("function");
    if (!fn || !fn->is_object()) continue;
    ToolCall tc;
    tc.id = StringAt(c, "id");
    tc.name = StringAt(*fn, "name");
    // Text as OpenAI sends it, an object from some compatible servers, absent from others.
    tc.arguments = ArgumentsText(fn->find("arguments"));
    reply.tool_calls.push_back(std::move(tc));
  }
}

// Reads `usage` into `out`; true when it reports the reasoning tokens.
bool ReadUsage(const Json& usage, Usage& out) {
  out.input_tokens = IntAt(usage, "prompt_tokens");
  out.output_tokens = IntAt(usage, "completion_tokens");
  // OpenAI reports cache reads in prompt_tokens_details, OpenRouter its cache writes next to
  // them; Mistral replies without the details carry the reads as num_cached_tokens.
  const Json* prompt = usage.find("prompt_tokens_details");
  if (prompt && prompt->is_object() && prompt->find("cached_tokens")) {
    out.cached_input_tokens = IntAt(*prompt, "cached_tokens");
  } else {
    out.cached_input_tokens = IntAt(usage, "num_cached_tokens");
  }
  if (prompt && prompt->is_object()) out.cache_write_tokens = IntAt(*prompt, "cache_write_tokens");
  const Json* completion = usage.find("completion_tokens_details");
  const Json* reasoning =
      completion && completion->is_object() ? completion->find("reasoning_tokens") : nullptr;
  if (!reasoning) return false;
  out.reasoning_tokens = IntAt(*completion, "reasoning_tokens");
  // OpenAI counts reasoning inside completion_tokens; xAI outside it, which its total shows
  // (prompt + completion + reasoning). The engine's output_tokens always includes thinking.
  if (out.reasoning_tokens > 0 &&
      IntAt(usage, "total_tokens") == out.input_tokens + out.output_tokens + out.reasoning_tokens) {
    out.output_tokens += out.reasoning_tokens;
  }
  return true;
}

}  // namespace

Result<HttpRequest> BuildOpenAiStyleRequest(const ProviderCall& call, const Endpoint& endpoint,
                                            const OpenAiDialect& dialect) {
  STRUCTURE_RETURN_IF_ERROR(CheckCall(call));
  ModelFamily family = FamilyFor(endpoint, call.model);
  auto thinking = ResolveThinking(family, call.model, call.thinking);
  if (!thinking.ok()) return thinking.status();
  Json body = Json::MakeObject();
  body.set("model", call.model);
  body.set("messages", Messages(call, ShouldMarkCachePrefix(call, family)));
  body.set(family.cap_field.empty() ? "max_tokens" : family.cap_field, call.max_tokens);
  if (call.temperature && family.temperature) body.set("temperature", *call.temperature);
  if (call.top_p && family.top_p) body.set("top_p", *call.top_p);
  if (call.seed) body.set("seed", *call.seed);
  if (!call.user.empty()) body.set("user", call.user);
  SetReasoning(*thinking, dialect.reasoning_object, body);
  // Calls on one schema share their prefix; the key sends them to the same cache.
  if (dialect.prompt_cache_key && !call.cache_key.empty()) {
    body.set("prompt_cache_key", call.cache_key);
  }

  Json tools = Json::MakeArray();
  if (call.final_tool) {
    tools.push_back(FunctionTool(call.final_tool_name, call.final_tool_description,
                                 dialect.strict && call.strict));
  } else if (call.schema->is_object()) {
    switch (dialect.schema_field) {
      case SchemaField::kResponseFormat: {
        Json js = Json::MakeObject();
        js.set("name", call.schema_name);
        if (dialect.strict && call.strict) js.set("strict", true);
        js.set("schema", Json());  // the shared schema text is spliced in
        body.set("response_format",
                 Json(Json::Object{{"type", "json_schema"}, {"json_schema", std::move(js)}}));
        break;
      }
      case SchemaField::kJsonObjectSchema:
        body.set("response_format",
                 Json(Json::Object{{"type", "json_object"}, {"schema", Json()}}));
        break;
      case SchemaField::kTopLevelJsonSchema:
        body.set("json_schema", Json());
        break;
    }
  } else {
    body.set("response_format", Json(Json::Object{{"type", "json_object"}}));
  }
  if (call.need == NeedChannel::kTool) {
    tools.push_back(FunctionTool(call.need_tool_name,
                                 "Call this instead of answering when the input lacks what a "
                                 "required field needs.",
                                 dialect.strict && call.strict));
  }
  if (tools.size() > 0) {
    if (call.final_tool && tools.size() == 1) {
      body.set(
          "tool_choice",
          Json(Json::Object{{"type", "function"},
                            {"function", Json(Json::Object{{"name", call.final_tool_name}})}}));
    } else {
      body.set("tool_choice", call.final_tool ? "required" : "auto");
    }
    // Off, so the answer comes as one call; families that refuse the field (o-series) do not
    // get it.
    if (family.parallel_tool_calls) body.set("parallel_tool_calls", false);
    body.set("tools", std::move(tools));
  }
  if (dialect.require_parameters) {
    body.set("provider", Json(Json::Object{{"require_parameters", true}}));
  }

  // The schemas are written from their shared text into the placeholders left above.
  BodySplices splices;
  splices.AddToolSchemas(body.find("tools"), {"function", "parameters"}, call);
  if (!call.final_tool && call.schema->is_object()) {
    switch (dialect.schema_field) {
      case SchemaField::kResponseFormat:
        splices.Add(MemberAt(body, {"response_format", "json_schema", "schema"}), call.schema);
        break;
      case SchemaField::kJsonObjectSchema:
        splices.Add(MemberAt(body, {"response_format", "schema"}), call.schema);
        break;
      case SchemaField::kTopLevelJsonSchema:
        splices.Add(MemberAt(body, {"json_schema"}), call.schema);
        break;
    }
  }
  return JsonPost(endpoint, "/v1/chat/completions", BearerAuth(endpoint), body, splices.list());
}

Result<ProviderReply> ParseOpenAiStyleReply(const HttpResponse& response,
                                            const OpenAiDialect& dialect) {
  auto body = ParseReplyBody(response, dialect.provider);
  if (!body.ok()) return body.status();
  const Json& root = *body;
  // OpenRouter reports some upstream failures inside a 200 body.
  if (const Json* err = root.find("error"); err && err->is_object()) {
    HttpResponse synthetic;
    synthetic.status = static_cast<int>(IntAt(*err, "code"));
    if (synthetic.status < 400) synthetic.status = 502;
    return StatusFromHttp(synthetic, dialect.provider, StringAt(*err, "message"),
                          StringAt(*err, "type"));
  }
  const Json* choices = root.find("choices");
  if (!choices || !choices->is_array() || choices->size() == 0 ||
      !choices->as_array()[0].is_object()) {
    return Unavailable(std::string(dialect.provider) + " reply: no choices in the body");
  }
  const Json& choice = choices->as_array()[0];
  ProviderReply reply;
  reply.model = StringAt(root, "model");
  std::string finish = StringAt(choice, "finish_reason");
  if (finish == "error") {
    return Unavailable(std::string(dialect.provider) + " reply: upstream error in the choice");
  }
  reply.finish = MapFinish(finish);
  if (const Json* msg = choice.find("message"); msg && msg->is_object()) ReadMessage(*msg, reply);
  if (!reply.refusal.empty()) reply.finish = FinishKind::kRefusal;
  // A forced tool choice ends with "stop" although the answer is a tool call.
  if (reply.finish == FinishKind::kStop && !reply.tool_calls.empty()) {
    reply.finish = FinishKind::kToolUse;
  }
  bool reasoning_reported = false;
  if (const Json* usage = root.find("usage"); usage && usage->is_object()) {
    reasoning_reported = ReadUsage(*usage, reply.usage);
  }
  NoteReasoningCount(reply, reasoning_reported);
  return reply;
}

namespace openai_chat {

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint) {
  return BuildOpenAiStyleRequest(call, endpoint, OpenAiDialect{});
}

Result<ProviderReply> ParseReply(const HttpResponse& response) {
  return ParseOpenAiStyleReply(response, OpenAiDialect{});
}

}  // namespace openai_chat
}  // namespace structure::providers
