#include "server/openai/chat_reply.h"

#include <atomic>
#include <random>

#include "base/hex.h"
#include "base/json_writer.h"

namespace structure::server::openai {
namespace {

using pipeline::Outcome;
using pipeline::StructureResult;

// The answer as message fields: content, or a tool call, or a refusal.
struct Answer {
  Json content;  // JSON text, or null
  Json refusal;  // need text, or null
  Json tool_calls;
  std::string finish_reason = "stop";
};

Answer AnswerOf(StructureResult& result, const ReplyContext& context) {
  Answer a;
  if (result.status == Outcome::kNeedMoreInput) {
    a.refusal = result.need;
    return a;
  }
  std::string text = ToJson(result.data);
  if (context.tool_name.empty()) {
    a.content = std::move(text);
    return a;
  }
  Json fn = Json::MakeObject();
  fn.set("name", context.tool_name);
  fn.set("arguments", std::move(text));
  Json call = Json::MakeObject();
  call.set("id", "call_" + context.id.substr(context.id.find('-') + 1));
  call.set("type", "function");
  call.set("function", std::move(fn));
  a.tool_calls = Json::MakeArray();
  a.tool_calls.push_back(std::move(call));
  a.finish_reason = "tool_calls";
  return a;
}

Json Envelope(const ReplyContext& context, const char* object) {
  Json j = Json::MakeObject();
  j.set("id", context.id);
  j.set("object", object);
  j.set("created", context.created);
  j.set("model", context.model);
  return j;
}

// A tool call inside a chunk carries its index.
Json IndexedCalls(Json calls) {
  for (Json& c : calls.as_array()) c.set("index", 0);
  return calls;
}

// Compact JSON text of v, appended: strings (the answer's text) without a temporary.
void AppendValue(std::string& out, const Json& v) {
  if (v.is_string()) return AppendJsonString(out, v.as_string());
  out += ToJson(v);
}

std::string Event(const Json& chunk) { return "data: " + ToJson(chunk) + "\n\n"; }

Json Chunk(const ReplyContext& context, Json delta, Json finish_reason) {
  Json choice = Json::MakeObject();
  choice.set("index", 0);
  choice.set("delta", std::move(delta));
  choice.set("logprobs", Json());
  choice.set("finish_reason", std::move(finish_reason));
  Json chunk = Envelope(context, "chat.completion.chunk");
  Json choices = Json::MakeArray();
  choices.push_back(std::move(choice));
  chunk.set("choices", std::move(choices));
  return chunk;
}

}  // namespace

std::optional<ApiError> ResultError(const StructureResult& result, const ReplyContext& context,
                                    const std::string& schema_param) {
  if (result.status == Outcome::kOk) return std::nullopt;
  if (result.status == Outcome::kNeedMoreInput && context.need == NeedAs::kRefusal) {
    return std::nullopt;
  }
  return ErrorForResult(result, schema_param);
}

void AppendUsage(std::string& out, const providers::Usage& usage) {
  JsonWriter w(out);
  w.BeginObject();
  w.Member("prompt_tokens", usage.input_tokens);
  w.Member("completion_tokens", usage.output_tokens);
  w.Member("total_tokens", usage.input_tokens + usage.output_tokens);
  w.Key("prompt_tokens_details").BeginObject();
  w.Member("cached_tokens", usage.cached_input_tokens);
  w.EndObject();
  w.Key("completion_tokens_details").BeginObject();
  w.Member("reasoning_tokens", usage.reasoning_tokens);
  w.EndObject();
  w.EndObject();
}

void AppendStructure(std::string& out, const StructureResult& result) {
  JsonWriter w(out);
  w.BeginObject();
  w.Member("status", pipeline::OutcomeName(result.status));
  w.Member("iterations", int64_t{result.iterations});
  if (!result.schema_origin.empty()) w.Member("schemaOrigin", result.schema_origin);
  if (!result.mode.empty()) w.Member("mode", result.mode);
  if (result.status == Outcome::kNeedMoreInput) w.Member("need", result.need);
  if (!result.evidence.is_null()) w.Key("evidence").Raw(ToJson(result.evidence));
  if (!result.ungrounded.is_null()) w.Key("ungrounded").Raw(ToJson(result.ungrounded));
  w.EndObject();
}

// "data: " + ToJson(chunk) + "\n\n", with the text `text` in place of chunk's member `key`.
std::string EventWith(const Json& chunk, const char* key, const std::string& text) {
  JsonSplice splice{chunk.find(key), text};
  return "data: " + ToJsonSpliced(chunk, {&splice, 1}) + "\n\n";
}

// Written straight into the text (every non-streamed answer goes through here): the bytes of
// ToJson of the object with these members in this order.
std::string CompletionJson(StructureResult result, const ReplyContext& context) {
  Answer a = AnswerOf(result, context);
  std::string out;
  out.reserve(384 + 2 * (a.content.is_string() ? a.content.as_string().size() : 0));
  out += "{\"id\":";
  AppendJsonString(out, context.id);
  out += ",\"object\":\"chat.completion\",\"created\":";
  out += std::to_string(context.created);
  out += ",\"model\":";
  AppendJsonString(out, context.model);
  out += ",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":";
  AppendValue(out, a.content);
  out += ",\"refusal\":";
  AppendValue(out, a.refusal);
  if (!a.tool_calls.is_null()) {
    out += ",\"tool_calls\":";
    AppendValue(out, a.tool_calls);
  }
  out += "},\"logprobs\":null,\"finish_reason\":";
  AppendJsonString(out, a.finish_reason);
  out += "}],\"usage\":";
  AppendUsage(out, result.usage);
  out += ",\"structure\":";
  AppendStructure(out, result);
  out += '}';
  return out;
}

std::string CompletionEvents(StructureResult result, const ReplyContext& context) {
  Answer a = AnswerOf(result, context);
  Json delta = Json::MakeObject();
  delta.set("role", "assistant");
  if (!a.content.is_null()) delta.set("content", std::move(a.content));
  if (!a.refusal.is_null()) {
    delta.set("content", Json());
    delta.set("refusal", std::move(a.refusal));
  }
  if (!a.tool_calls.is_null()) delta.set("tool_calls", IndexedCalls(std::move(a.tool_calls)));
  std::string out = Event(Chunk(context, std::move(delta), Json()));
  Json last = Chunk(context, Json::MakeObject(), Json(a.finish_reason));
  last.set("structure", Json());
  std::string text;
  AppendStructure(text, result);
  out += EventWith(last, "structure", text);
  if (context.include_usage) {
    Json usage = Envelope(context, "chat.completion.chunk");
    usage.set("choices", Json::MakeArray());
    usage.set("usage", Json());
    text.clear();
    AppendUsage(text, result.usage);
    out += EventWith(usage, "usage", text);
  }
  out += "data: [DONE]\n\n";
  return out;
}

std::string ErrorEvent(const ApiError& error) {
  return "data: " + ErrorJson(error) + "\n\ndata: [DONE]\n\n";
}

std::string NewCompletionId() {
  static std::atomic<uint64_t> counter{0};
  static const uint64_t base = [] {
    std::random_device rd;
    return (static_cast<uint64_t>(rd()) << 32) ^ rd();
  }();
  thread_local std::mt19937_64 rng(base ^ counter.fetch_add(1));
  // 16 random hex digits, then the low 8 of the counter.
  std::string id = "chatcmpl-" + Hex64(rng());
  id += std::string_view(Hex64(counter.fetch_add(1))).substr(8);
  return id;
}

}  // namespace structure::server::openai
