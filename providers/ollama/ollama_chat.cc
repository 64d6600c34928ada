#include "providers/ollama/ollama_chat.h"

#include "base/base64.h"
#include "providers/call_check.h"
#include "providers/models.h"
#include "providers/wire_util.h"

namespace structure::providers::ollama_chat {
namespace {

constexpr std::string_view kProvider = "ollama";

// A function tool whose parameters are a placeholder for the shared schema text (see
// BuildRequest).
Json FunctionTool(const std::string& name, const std::string& description) {
  Json fn(Json::Object{{"name", name}, {"description", description}, {"parameters", Json()}});
  return Json(Json::Object{{"type", "function"}, {"function", std::move(fn)}});
}

Json Messages(const ProviderCall& call) {
  Json msgs = Json::MakeArray();
  if (!call.system.empty()) {
    msgs.push_back(Json(Json::Object{{"role", "system"}, {"content", call.system}}));
  }
  for (const Turn& t : call.turns) {
    Json m = Json::MakeObject();
    if (t.role == Role::kUser) {
      m.set("role", "user");
      // Ollama takes images as a message's base64 "images" and no documents: files with text
      // (a PDF's text layer, a text file) go before the turn's text.
      std::string content;
      Json images = Json::MakeArray();
      for (const FilePart& f : t.files) {
        if (f.text) {
          content += *f.text;
          content += "\n\n";
        } else {
          images.push_back(Base64Encode(f.data ? *f.data : std::string()));
        }
      }
      content += t.text;
      m.set("content", std::move(content));
      if (images.size() > 0) m.set("images", std::move(images));
    } else if (t.role == Role::kAssistant) {
      m.set("role", "assistant");
      m.set("content", t.text);
      if (!t.tool_calls.empty()) {
        Json calls = Json::MakeArray();
        for (const ToolCall& c : t.tool_calls) {
          Json fn(Json::Object{{"name", c.name}, {"arguments", ArgumentsObject(c.arguments)}});
          calls.push_back(Json(Json::Object{{"function", std::move(fn)}}));
        }
        m.set("tool_calls", std::move(calls));
      }
    } else {
      m.set("role", "tool");
      m.set("content", t.is_error ? "Error: " + t.text : t.text);
      m.set("tool_name", t.tool_name);
    }
    msgs.push_back(std::move(m));
  }
  return msgs;
}

// A thinking model's reasoning comes in message.thinking. With `think` unset such a model thinks
// (Ollama's default), and some put their whole format-constrained answer there and leave
// content empty: a complete reply without content or tool calls then takes the thinking as its
// answer, validated like any other. Otherwise the thinking is kept as a thought (never the
// answer), so a reply cut off while thinking still reads as one.
void ReadThinking(std::string thinking, ProviderReply& reply) {
  if (thinking.empty()) return;
  bool no_answer =
      reply.content.find_first_not_of(" \t\r\n") == std::string::npos && reply.tool_calls.empty();
  if (no_answer && reply.finish == FinishKind::kStop) {
    reply.content = std::move(thinking);
    return;
  }
  reply.thoughts.push_back({std::move(thinking), "", false});
}

}  // namespace

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint) {
  STRUCTURE_RETURN_IF_ERROR(CheckCall(call));
  ModelFamily family = FamilyFor(endpoint, call.model);
  auto thinking = ResolveThinking(family, call.model, call.thinking);
  if (!thinking.ok()) return thinking.status();
  Json body = Json::MakeObject();
  body.set("model", call.model);
  body.set("messages", Messages(call));
  body.set("stream", false);
  // Ollama's think: false, true or a level (gpt-oss); the thinking comes back apart from the
  // content.
  if (thinking->form == WireThinking::Form::kOff) {
    body.set("think", false);
  } else if (thinking->form == WireThinking::Form::kLevel) {
    body.set("think", thinking->level);
  } else if (thinking->on()) {
    body.set("think", true);
  }
  Json tools = Json::MakeArray();
  if (call.final_tool) {
    tools.push_back(FunctionTool(call.final_tool_name, call.final_tool_description));
  } else if (call.schema->is_object()) {
    body.set("format", Json());
  } else {
    body.set("format", "json");
  }
  if (call.need == NeedChannel::kTool) {
    tools.push_back(FunctionTool(call.need_tool_name,
                                 "Call this instead of answering when the input lacks what a "
                                 "required field needs."));
  }
  if (tools.size() > 0) body.set("tools", std::move(tools));
  Json options = Json::MakeObject();
  options.set("num_predict", call.max_tokens);
  if (call.temperature && family.temperature) options.set("temperature", *call.temperature);
  if (call.top_p && family.top_p) options.set("top_p", *call.top_p);
  if (call.seed) options.set("seed", *call.seed);
  body.set("options", std::move(options));

  // The schemas are written from their shared text into the placeholders left above.
  BodySplices splices;
  splices.AddToolSchemas(body.find("tools"), {"function", "parameters"}, call);
  if (!call.final_tool && call.schema->is_object()) splices.Add(body.find("format"), call.schema);
  return JsonPost(endpoint, "/api/chat", BearerAuth(endpoint), body, splices.list());
}

Result<ProviderReply> ParseReply(const HttpResponse& response) {
  auto body = ParseReplyBody(response, kProvider);
  if (!body.ok()) return body.status();
  const Json& root = *body;
  if (const Json* err = root.find("error"); err && err->is_string()) {
    return Unavailable("ollama reply: " + err->as_string());
  }
  const Json* msg = root.find("message");
  if (!msg || !msg->is_object()) return Unavailable("ollama reply: no message in the body");
  ProviderReply reply;
  reply.model = StringAt(root, "model");
  reply.content = StringAt(*msg, "content");
  if (const Json* calls = msg->find("tool_calls"); calls && calls->is_array()) {
    for (const Json& c : calls->as_array()) {
      const Json* fn = c.find("function");
      if (!fn || !fn->is_object()) continue;
      ToolCall tc;
      tc.id = StringAt(c, "id");
      if (tc.id.empty()) tc.id = "call_" + std::to_string(reply.tool_calls.size());
      tc.name = StringAt(*fn, "name");
      tc.arguments = ArgumentsText(fn->find("arguments"));
      reply.tool_calls.push_back(std::move(tc));
    }
  }
  std::string done = StringAt(root, "done_reason");
  reply.finish = done == "length"           ? FinishKind::kLength
                 : reply.tool_calls.empty() ? FinishKind::kStop
                                            : FinishKind::kToolUse;
  ReadThinking(StringAt(*msg, "thinking"), reply);
  reply.usage.input_tokens = IntAt(root, "prompt_eval_count");
  reply.usage.output_tokens = IntAt(root, "eval_count");  // thinking included, never split out
  NoteReasoningCount(reply, false);
  return reply;
}

}  // namespace structure::providers::ollama_chat
