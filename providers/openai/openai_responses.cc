#include "providers/openai/openai_responses.h"

#include "base/json_writer.h"
#include "base/media_type.h"
#include "providers/call_check.h"
#include "providers/file_parts.h"
#include "providers/models.h"
#include "providers/wire_util.h"

namespace structure::providers::openai_responses {
namespace {

// FunctionTool: {type, name, description, parameters, strict}, flat (chat completions nests it
// under `function`).
void WriteFunctionTool(JsonWriter& w, const std::string& name, const std::string& description,
                       const SharedJson& schema, bool strict) {
  w.BeginObject();
  w.Member("type", "function");
  w.Member("name", name);
  w.Member("description", description);
  w.Key("parameters").Raw(schema.text());
  w.Member("strict", strict);
  w.EndObject();
}

// A reasoning item as the reply gave it. Without its encrypted_content it cannot be sent back
// (nothing is stored: store is false), so it is left out.
void WriteReasoningItem(JsonWriter& w, const Thought& t) {
  if (t.id.empty() || t.signature.empty()) return;
  w.BeginObject();
  w.Member("type", "reasoning");
  w.Member("id", t.id);
  w.Key("summary").BeginArray();
  if (!t.text.empty()) {
    w.BeginObject();
    w.Member("type", "summary_text");
    w.Member("text", t.text);
    w.EndObject();
  }
  w.EndArray();
  w.Member("encrypted_content", t.signature);
  w.EndObject();
}

// An earlier answer: its reasoning items, its text as an output message (with the message item's
// id when the reply gave one) and its function calls, in the order the reply had them. Reasoning
// that led to nothing (a reply cut off while the model reasoned) is not sent back: a reasoning
// item goes only with the item that followed it.
void WriteAssistant(JsonWriter& w, const Turn& t) {
  if (!t.text.empty() || !t.tool_calls.empty()) {
    for (const Thought& thought : t.thoughts) WriteReasoningItem(w, thought);
  }
  if (!t.text.empty() || t.tool_calls.empty()) {
    w.BeginObject();
    w.Member("type", "message");
    w.Member("role", "assistant");
    if (!t.text_signature.empty()) {
      // An output message (OutputMessage): id, status and output_text parts.
      w.Member("id", t.text_signature);
      w.Member("status", "completed");
      w.Key("content").BeginArray();
      w.BeginObject();
      w.Member("type", "output_text");
      w.Member("text", t.text);
      w.Key("annotations").BeginArray();
      w.EndArray();
      w.Key("logprobs").BeginArray();  // required in OutputTextContent
      w.EndArray();
      w.EndObject();
      w.EndArray();
    } else {
      w.Member("content", t.text);
    }
    w.EndObject();
  }
  for (const ToolCall& c : t.tool_calls) {
    w.BeginObject();
    w.Member("type", "function_call");
    if (!c.signature.empty()) w.Member("id", c.signature);
    w.Member("call_id", c.id);
    w.Member("name", c.name);
    w.Member("arguments", c.arguments);
    w.EndObject();
  }
}

// A user turn with files (EasyInputMessage content parts): one part per file, then the text.
// PDFs as input_file with the file name and a data URL, images as input_image with a data URL,
// files with text (a text file, a PDF's text layer) as input_text.
void WriteUserParts(JsonWriter& w, const Turn& t) {
  w.Key("content").BeginArray();
  for (const FilePart& f : t.files) {
    w.BeginObject();
    if (f.text) {
      w.Member("type", "input_text");
      w.Member("text", *f.text);
    } else if (f.media_type == kPdf) {
      w.Member("type", "input_file");
      w.Member("filename", f.name);
      w.Member("file_data", DataUrl(f));
    } else {
      w.Member("type", "input_image");
      w.Member("image_url", DataUrl(f));
      w.Member("detail", "auto");  // required by the published InputImageContent
    }
    w.EndObject();
  }
  if (!t.text.empty()) {
    w.BeginObject();
    w.Member("type", "input_text");
    w.Member("text", t.text);
    w.EndObject();
  }
  w.EndArray();
}

void WriteInput(JsonWriter& w, const ProviderCall& call) {
  w.Key("input").BeginArray();
  for (const Turn& t : call.turns) {
    switch (t.role) {
      case Role::kUser:
        w.BeginObject();
        w.Member("role", "user");
        if (t.files.empty()) {
          w.Member("content", t.text);
        } else {
          WriteUserParts(w, t);
        }
        w.EndObject();
        break;
      case Role::kAssistant:
        WriteAssistant(w, t);
        break;
      case Role::kTool:
        w.BeginObject();
        w.Member("type", "function_call_output");
        w.Member("call_id", t.tool_call_id);
        w.Member("output", t.is_error ? "Error: " + t.text : t.text);
        w.EndObject();
        break;
    }
  }
  w.EndArray();
}

// reasoning {effort}: the level as it is ("none" turns reasoning off where the family takes it).
void WriteReasoning(JsonWriter& w, const WireThinking& t) {
  if (t.form != WireThinking::Form::kLevel && t.form != WireThinking::Form::kOff) return;
  w.Key("reasoning").BeginObject();
  w.Member("effort", t.form == WireThinking::Form::kOff ? std::string("none") : t.level);
  w.EndObject();
}

// text.format: the schema of a schema-mode call, or JSON mode without one.
void WriteTextFormat(JsonWriter& w, const ProviderCall& call) {
  w.Key("text").BeginObject();
  w.Key("format").BeginObject();
  if (!call.schema->is_object()) {
    w.Member("type", "json_object");
  } else {
    w.Member("type", "json_schema");
    w.Member("name", call.schema_name);
    w.Member("strict", call.strict);
    w.Key("schema").Raw(call.schema.text());
  }
  w.EndObject();
  w.EndObject();
}

// The final tool and/or the need tool, and how the model must choose among them.
void WriteTools(JsonWriter& w, const ProviderCall& call, const ModelFamily& family) {
  bool need_tool = call.need == NeedChannel::kTool;
  if (!call.final_tool && !need_tool) return;
  if (call.final_tool && !need_tool) {
    w.Key("tool_choice").BeginObject();
    w.Member("type", "function");
    w.Member("name", call.final_tool_name);
    w.EndObject();
  } else {
    w.Member("tool_choice", call.final_tool ? "required" : "auto");
  }
  if (family.parallel_tool_calls) w.Member("parallel_tool_calls", false);
  w.Key("tools").BeginArray();
  if (call.final_tool) {
    WriteFunctionTool(w, call.final_tool_name, call.final_tool_description, call.schema,
                      call.strict);
  }
  if (need_tool) {
    WriteFunctionTool(w, call.need_tool_name,
                      "Call this instead of answering when the input lacks what a required "
                      "field needs.",
                      call.need_schema, call.strict);
  }
  w.EndArray();
}

bool Reasons(const ModelFamily& f) { return !f.efforts.empty() || f.thinks_by_default; }

}  // namespace

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint) {
  STRUCTURE_RETURN_IF_ERROR(CheckCall(call));
  ModelFamily family = FamilyFor(endpoint, call.model);
  auto thinking = ResolveThinking(family, call.model, call.thinking);
  if (!thinking.ok()) return thinking.status();
  std::string body;
  body.reserve(512 + call.system.size() + call.schema.text().size() +
               (call.need == NeedChannel::kTool ? call.need_schema.text().size() : 0) +
               (call.turns.empty() ? 0 : call.turns.back().text.size()));
  JsonWriter w(body);
  w.BeginObject();
  w.Member("model", call.model);
  if (!call.system.empty()) w.Member("instructions", call.system);
  WriteInput(w, call);
  w.Member("max_output_tokens", call.max_tokens);
  if (call.temperature && family.temperature) w.Key("temperature").Double(*call.temperature);
  if (call.top_p && family.top_p) w.Key("top_p").Double(*call.top_p);
  // The Responses API has no seed.
  if (!call.user.empty()) w.Member("user", call.user);
  WriteReasoning(w, *thinking);
  if (!call.cache_key.empty()) w.Member("prompt_cache_key", call.cache_key);
  // Nothing is kept at OpenAI: every call carries its whole conversation, and a reasoning
  // family's reasoning comes back encrypted so that a re-ask can send it again.
  w.Member("store", false);
  if (Reasons(family)) {
    w.Key("include").BeginArray();
    w.String("reasoning.encrypted_content");
    w.EndArray();
  }
  if (!call.final_tool) WriteTextFormat(w, call);
  WriteTools(w, call, family);
  w.EndObject();
  return JsonPostText(endpoint, kPath, BearerAuth(endpoint), std::move(body));
}

}  // namespace structure::providers::openai_responses
