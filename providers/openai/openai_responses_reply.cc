// Reading a Responses API reply (openai_responses.h): the output items into a ProviderReply.
#include "providers/http_status.h"
#include "providers/openai/openai_responses.h"
#include "providers/wire_util.h"

namespace structure::providers::openai_responses {
namespace {

constexpr std::string_view kProvider = "openai";

// reasoning {id, summary: [{type: summary_text, text}], encrypted_content}: kept as a thought,
// to be sent back on a re-ask.
void ReadReasoning(const Json& item, ProviderReply& reply) {
  Thought t;
  t.id = StringAt(item, "id");
  if (const Json* summary = item.find("summary"); summary && summary->is_array()) {
    for (const Json& part : summary->as_array()) {
      if (!part.is_object()) continue;
      std::string text = StringAt(part, "text");
      if (text.empty()) continue;
      if (!t.text.empty()) t.text += "\n";
      t.text += text;
    }
  }
  t.signature = StringAt(item, "encrypted_content");
  if (!t.id.empty() || !t.text.empty()) reply.thoughts.push_back(std::move(t));
}

// message {id, content: [{type: output_text, text} | {type: refusal, refusal}]}.
void ReadMessage(const Json& item, ProviderReply& reply) {
  if (reply.text_signature.empty()) reply.text_signature = StringAt(item, "id");
  const Json* content = item.find("content");
  if (!content || !content->is_array()) return;
  for (const Json& part : content->as_array()) {
    if (!part.is_object()) continue;
    std::string type = StringAt(part, "type");
    if (type == "output_text") {
      reply.content += StringAt(part, "text");
    } else if (type == "refusal") {
      reply.refusal += StringAt(part, "refusal");
    }
  }
}

// function_call {id, call_id, name, arguments}: the call_id answers it, the id goes back with it.
void ReadFunctionCall(const Json& item, ProviderReply& reply) {
  ToolCall tc;
  tc.id = StringAt(item, "call_id");
  tc.signature = StringAt(item, "id");
  if (tc.id.empty()) tc.id = tc.signature;
  tc.name = StringAt(item, "name");
  tc.arguments = ArgumentsText(item.find("arguments"));
  reply.tool_calls.push_back(std::move(tc));
}

// usage {input_tokens, input_tokens_details {cached_tokens, cache_write_tokens}, output_tokens
// (reasoning included),
// output_tokens_details.reasoning_tokens}; true when the reasoning count is there.
bool ReadUsage(const Json& usage, Usage& out) {
  out.input_tokens = IntAt(usage, "input_tokens");
  out.output_tokens = IntAt(usage, "output_tokens");
  if (const Json* in = usage.find("input_tokens_details"); in && in->is_object()) {
    out.cached_input_tokens = IntAt(*in, "cached_tokens");
    out.cache_write_tokens = IntAt(*in, "cache_write_tokens");
  }
  const Json* details = usage.find("output_tokens_details");
  if (!details || !details->is_object() || !details->find("reasoning_tokens")) return false;
  out.reasoning_tokens = IntAt(*details, "reasoning_tokens");
  return true;
}

// A response whose status is "failed": its error {code, message} as the HTTP error it stands for.
Status FailedStatus(const Json& root) {
  const Json* err = root.find("error");
  std::string code = err && err->is_object() ? StringAt(*err, "code") : "";
  std::string message = err && err->is_object() ? StringAt(*err, "message") : "";
  if (message.empty()) message = "the response failed without an error message";
  HttpResponse synthetic;
  synthetic.status = code == "rate_limit_exceeded" ? 429 : 500;
  return StatusFromHttp(synthetic, kProvider, message, code);
}

}  // namespace

bool IsResponseObject(const Json& root) {
  if (!root.is_object() || root.find("choices")) return false;
  const Json* output = root.find("output");
  return StringAt(root, "object") == "response" || (output && output->is_array());
}

Result<ProviderReply> ReplyFromTree(const Json& root) {
  std::string status = StringAt(root, "status");
  if (status == "failed") return FailedStatus(root);
  ProviderReply reply;
  reply.model = StringAt(root, "model");
  const Json* output = root.find("output");
  if (!output || !output->is_array()) {
    return Unavailable("openai reply: the response has no output list");
  }
  for (const Json& item : output->as_array()) {
    if (!item.is_object()) continue;
    std::string type = StringAt(item, "type");
    if (type == "reasoning") {
      ReadReasoning(item, reply);
    } else if (type == "message") {
      ReadMessage(item, reply);
    } else if (type == "function_call") {
      ReadFunctionCall(item, reply);
    }
  }
  reply.finish = !reply.tool_calls.empty() ? FinishKind::kToolUse : FinishKind::kStop;
  if (!reply.refusal.empty()) reply.finish = FinishKind::kRefusal;
  if (status == "incomplete") {
    const Json* details = root.find("incomplete_details");
    std::string reason = details && details->is_object() ? StringAt(*details, "reason") : "";
    // max_output_tokens: the answer was cut there (reasoning may have used the whole cap);
    // content_filter: blocked.
    reply.finish = reason == "content_filter" ? FinishKind::kSafety : FinishKind::kLength;
  }
  bool reasoning_reported = false;
  if (const Json* usage = root.find("usage"); usage && usage->is_object()) {
    reasoning_reported = ReadUsage(*usage, reply.usage);
  }
  NoteReasoningCount(reply, reasoning_reported);
  return reply;
}

Result<ProviderReply> ParseReply(const HttpResponse& response) {
  auto body = ParseReplyBody(response, kProvider);
  if (!body.ok()) return body.status();
  if (!IsResponseObject(*body)) {
    return Unavailable("openai reply: not a response object (no output list)");
  }
  return ReplyFromTree(*body);
}

}  // namespace structure::providers::openai_responses
