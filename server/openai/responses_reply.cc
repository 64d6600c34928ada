#include "server/openai/responses_reply.h"

#include "base/json_writer.h"

namespace structure::server::openai {
namespace {

using pipeline::Outcome;
using pipeline::StructureResult;

// input_tokens, output_tokens and their details, summed over every call of the request.
void WriteUsage(JsonWriter& w, const providers::Usage& usage) {
  w.BeginObject();
  w.Member("input_tokens", usage.input_tokens);
  w.Key("input_tokens_details").BeginObject();
  w.Member("cached_tokens", usage.cached_input_tokens);
  w.EndObject();
  w.Member("output_tokens", usage.output_tokens);
  w.Key("output_tokens_details").BeginObject();
  w.Member("reasoning_tokens", usage.reasoning_tokens);
  w.EndObject();
  w.Member("total_tokens", usage.input_tokens + usage.output_tokens);
  w.EndObject();
}

// What the one output item holds: the JSON text as output_text, the need as a refusal, or the
// forced function's arguments.
struct Item {
  enum Kind { kText, kRefusal, kCall } kind = kText;
  std::string text;    // the JSON text, the need or the arguments
  std::string suffix;  // of the response id, for the item's ids
};

Item ItemOf(const StructureResult& result, const ReplyContext& context) {
  Item item;
  item.suffix = context.id.substr(context.id.find('_') + 1);
  if (result.status == Outcome::kNeedMoreInput) {
    item.kind = Item::kRefusal;
    item.text = result.need;
  } else {
    item.kind = context.tool_name.empty() ? Item::kText : Item::kCall;
    item.text = ToJson(result.data);
  }
  return item;
}

const char* PartType(const Item& item) {
  return item.kind == Item::kRefusal ? "refusal" : "output_text";
}

// The content part of a message item, with `text` (empty while a stream is under way).
void WritePart(JsonWriter& w, const Item& item, const std::string& text) {
  w.BeginObject();
  w.Member("type", PartType(item));
  w.Member(item.kind == Item::kRefusal ? "refusal" : "text", text);
  if (item.kind == Item::kText) {
    w.Key("annotations").BeginArray();
    w.EndArray();
  }
  w.EndObject();
}

// The output item, whole (`done`) or as a stream announces it: a message without content, a
// call without arguments.
void WriteItem(JsonWriter& w, const Item& item, const ReplyContext& context, bool done) {
  w.BeginObject();
  if (item.kind == Item::kCall) {
    w.Member("type", "function_call");
    w.Member("id", "fc_" + item.suffix);
    w.Member("call_id", "call_" + item.suffix);
    w.Member("name", context.tool_name);
    w.Member("arguments", done ? item.text : std::string());
    w.Member("status", done ? "completed" : "in_progress");
  } else {
    w.Member("type", "message");
    w.Member("id", "msg_" + item.suffix);
    w.Member("status", done ? "completed" : "in_progress");
    w.Member("role", "assistant");
    w.Key("content").BeginArray();
    if (done) WritePart(w, item, item.text);
    w.EndArray();
  }
  w.EndObject();
}

// The response object: completed with its output, usage and `structure` object, or (result
// null) in progress with no output yet.
void WriteResponse(JsonWriter& w, const StructureResult* result, const Item& item,
                   const ReplyContext& context) {
  w.BeginObject();
  w.Member("id", context.id);
  w.Member("object", "response");
  w.Member("created_at", context.created);
  w.Member("status", result != nullptr ? "completed" : "in_progress");
  w.Key("error").Null();
  w.Key("incomplete_details").Null();
  w.Member("model", context.model);
  w.Key("output").BeginArray();
  if (result != nullptr) WriteItem(w, item, context, true);
  w.EndArray();
  w.Member("parallel_tool_calls", false);
  w.Key("tool_choice").String(context.tool_name.empty() ? "auto" : "required");
  w.Key("tools").BeginArray();
  w.EndArray();
  w.Key("metadata").BeginObject();
  w.EndObject();
  if (result == nullptr) {
    w.Key("usage").Null();
  } else {
    w.Key("usage");
    WriteUsage(w, result->usage);
    // Beside the standard fields, as on /v1/chat/completions.
    std::string structure;
    AppendStructure(structure, *result);
    w.Key("structure").Raw(structure);
  }
  w.EndObject();
}

// One server-sent event: "event: TYPE" and {"type": TYPE, "sequence_number": N, ...}, the
// members `body` writes.
class Events {
 public:
  template <typename Body>
  void Add(const char* type, Body body) {
    out_ += "event: ";
    out_ += type;
    out_ += "\ndata: ";
    JsonWriter w(out_);
    w.BeginObject();
    w.Member("type", type);
    w.Member("sequence_number", seq_++);
    body(w);
    w.EndObject();
    out_ += "\n\n";
  }
  std::string& text() { return out_; }

 private:
  std::string out_;
  int64_t seq_ = 0;
};

}  // namespace

std::string ResponseJson(StructureResult result, const ReplyContext& context) {
  std::string out;
  JsonWriter w(out);
  WriteResponse(w, &result, ItemOf(result, context), context);
  return out;
}

std::string ResponseEvents(StructureResult result, const ReplyContext& context) {
  const Item item = ItemOf(result, context);
  const std::string item_id = (item.kind == Item::kCall ? "fc_" : "msg_") + item.suffix;
  Events e;
  auto response = [&](const StructureResult* r) {
    return [&, r](JsonWriter& w) {
      w.Key("response");
      WriteResponse(w, r, item, context);
    };
  };
  auto at = [&](JsonWriter& w) {
    w.Member("item_id", item_id);
    w.Member("output_index", int64_t{0});
    if (item.kind != Item::kCall) w.Member("content_index", int64_t{0});
  };
  e.Add("response.created", response(nullptr));
  e.Add("response.in_progress", response(nullptr));
  e.Add("response.output_item.added", [&](JsonWriter& w) {
    w.Member("output_index", int64_t{0});
    w.Key("item");
    WriteItem(w, item, context, false);
  });
  if (item.kind == Item::kCall) {
    e.Add("response.function_call_arguments.delta", [&](JsonWriter& w) {
      at(w);
      w.Member("delta", item.text);
    });
    e.Add("response.function_call_arguments.done", [&](JsonWriter& w) {
      at(w);
      w.Member("arguments", item.text);
    });
  } else {
    const bool refusal = item.kind == Item::kRefusal;
    e.Add("response.content_part.added", [&](JsonWriter& w) {
      at(w);
      w.Key("part");
      WritePart(w, item, "");
    });
    e.Add(refusal ? "response.refusal.delta" : "response.output_text.delta", [&](JsonWriter& w) {
      at(w);
      w.Member("delta", item.text);
    });
    e.Add(refusal ? "response.refusal.done" : "response.output_text.done", [&](JsonWriter& w) {
      at(w);
      w.Member(refusal ? "refusal" : "text", item.text);
    });
    e.Add("response.content_part.done", [&](JsonWriter& w) {
      at(w);
      w.Key("part");
      WritePart(w, item, item.text);
    });
  }
  e.Add("response.output_item.done", [&](JsonWriter& w) {
    w.Member("output_index", int64_t{0});
    w.Key("item");
    WriteItem(w, item, context, true);
  });
  e.Add("response.completed", response(&result));
  return std::move(e.text());
}

std::string NewResponseId() { return "resp_" + NewCompletionId().substr(9); }

}  // namespace structure::server::openai
