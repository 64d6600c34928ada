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
  if (const Json* msg = choice.find("message"); msg && msg->is_object()) {
    reply.content = StringAt(*msg, "content");
    reply.refusal = StringAt(*msg, "refusal");
    if (const Json* calls = msg->find("tool_calls"); calls && calls->is_array()) {
      for (const Json& c : calls->as_array()) {
        const Json* fn = c.find("function");
        if (!fn || !fn->is_object()) continue;
        ToolCall tc;
        tc.id = StringAt(c, "id");
        tc.name = StringAt(*fn, "name");
        const Json* args = fn->find("arguments");
        // Some compatible servers send the arguments as an object rather than text.
        if (args && args->is_string())
          tc.arguments = args->as_string();
        else if (args)
          tc.arguments = ToJson(*args);
        reply.tool_calls.push_back(std::move(tc));
      }
    }
  }
  if (!reply.refusal.empty()) reply.finish = FinishKind::kRefusal;
  // A forced tool choice ends with "stop" although the answer is a tool call.
  if (reply.finish == FinishKind::kStop && !reply.tool_calls.empty()) {
    reply.finish = FinishKind::kToolUse;
  }
  if (const Json* usage = root.find("usage"); usage && usage->is_object()) {
    reply.usage.input_tokens = IntAt(*usage, "prompt_tokens");
    reply.usage.output_tokens = IntAt(*usage, "completion_tokens");
    // OpenAI reports cache reads here; OpenRouter adds its cache writes next to them.
    if (const Json* d = usage->find("prompt_tokens_details"); d && d->is_object()) {
      reply.usage.cached_input_tokens = IntAt(*d, "cached_tokens");
      reply.usage.cache_write_tokens = IntAt(*d, "cache_write_tokens");
    }
    if (const Json* details = usage->find("completion_tokens_details");
        details && details->is_object()) {
      reply.usage.reasoning_tokens = IntAt(*details, "reasoning_tokens");
    }
  }
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
