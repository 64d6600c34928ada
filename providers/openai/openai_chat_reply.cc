#include "providers/openai/openai_chat_reply.h"

#include <cstdint>

#include "base/json_reader.h"
#include "providers/wire_util.h"

namespace structure::providers {
namespace {

// ---- From the tree ----

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

// Reasoning text next to the answer: DeepSeek and xAI "reasoning_content", Groq and OpenRouter
// "reasoning", kept in this order after the thinking parts of the content.
void AddReasoning(std::string reasoning_content, std::string reasoning, ProviderReply& reply) {
  for (std::string* text : {&reasoning_content, &reasoning}) {
    if (!text->empty()) reply.thoughts.push_back({std::move(*text), "", false});
  }
}

void ReadMessage(const Json& msg, ProviderReply& reply) {
  if (const Json* content = msg.find("content")) ReadContent(*content, reply);
  reply.refusal = StringAt(msg, "refusal");
  AddReasoning(StringAt(msg, "reasoning_content"), StringAt(msg, "reasoning"), reply);
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

ChatUsageFields UsageFieldsFromTree(const Json& usage) {
  ChatUsageFields f;
  f.prompt = IntAt(usage, "prompt_tokens");
  f.completion = IntAt(usage, "completion_tokens");
  f.total = IntAt(usage, "total_tokens");
  f.num_cached = IntAt(usage, "num_cached_tokens");
  if (const Json* prompt = usage.find("prompt_tokens_details"); prompt && prompt->is_object()) {
    if (prompt->find("cached_tokens")) f.cached = IntAt(*prompt, "cached_tokens");
    f.cache_write = IntAt(*prompt, "cache_write_tokens");
  }
  const Json* completion = usage.find("completion_tokens_details");
  if (completion && completion->is_object() && completion->find("reasoning_tokens")) {
    f.reasoning = IntAt(*completion, "reasoning_tokens");
  }
  return f;
}

// ---- Straight from the text ----

// The members of interest already read in one object: ParseJson keeps the last of repeated
// members, so a repeat sends the body to the tree path.
class Seen {
 public:
  bool First(int member) {
    uint32_t bit = uint32_t{1} << member;
    if (bits_ & bit) return false;
    bits_ |= bit;
    return true;
  }

 private:
  uint32_t bits_ = 0;
};

// StringAt and IntAt over the reader: another type of value is skipped and reads as "" or 0; a
// number that is not an int64 integer gives up (IntAt truncates it).
bool StringOrSkip(JsonReader& r, std::string& out) {
  return r.Peek() == '"' ? r.String(out) : r.Skip();
}
bool IntOrSkip(JsonReader& r, int64_t& out) {
  char c = r.Peek();
  return c == '-' || (c >= '0' && c <= '9') ? r.Int(out) : r.Skip();
}

// function {name, arguments}: arguments as text or null (anything else: the tree path).
bool ReadFunction(JsonReader& r, ToolCall& tc) {
  Seen seen;
  tc.arguments = "{}";
  return r.Object([&](std::string_view key) {
    if (key == "name") return seen.First(0) && StringOrSkip(r, tc.name);
    if (key != "arguments") return r.Skip();
    if (!seen.First(1)) return false;
    if (r.Peek() != '"') return r.Peek() == 'n' && r.Skip();
    if (!r.String(tc.arguments)) return false;
    tc.arguments = ArgumentsFromText(std::move(tc.arguments));
    return true;
  });
}

bool ReadToolCall(JsonReader& r, ToolCall& tc) {
  Seen seen;
  bool has_function = false;
  return r.Object([&](std::string_view key) {
    if (key == "id") return seen.First(0) && StringOrSkip(r, tc.id);
    if (key != "function") return r.Skip();
    has_function = true;
    return seen.First(1) && ReadFunction(r, tc);
  }) && has_function;
}

bool ReadMessageText(JsonReader& r, ProviderReply& reply) {
  Seen seen;
  std::string reasoning_content, reasoning;
  bool ok = r.Object([&](std::string_view key) {
    if (key == "content") return seen.First(0) && r.Peek() != '[' && StringOrSkip(r, reply.content);
    if (key == "refusal") return seen.First(1) && StringOrSkip(r, reply.refusal);
    if (key == "reasoning_content") return seen.First(2) && StringOrSkip(r, reasoning_content);
    if (key == "reasoning") return seen.First(3) && StringOrSkip(r, reasoning);
    if (key != "tool_calls") return r.Skip();
    if (!seen.First(4)) return false;
    if (r.Peek() != '[') return r.Skip();
    return r.Array([&] {
      ToolCall tc;
      if (!ReadToolCall(r, tc)) return false;
      reply.tool_calls.push_back(std::move(tc));
      return true;
    });
  });
  if (ok) AddReasoning(std::move(reasoning_content), std::move(reasoning), reply);
  return ok;
}

bool ReadChoice(JsonReader& r, ChatReplyParts& parts) {
  Seen seen;
  return r.Object([&](std::string_view key) {
    if (key == "finish_reason") return seen.First(0) && StringOrSkip(r, parts.finish);
    if (key != "message") return r.Skip();
    if (!seen.First(1)) return false;
    return r.Peek() == '{' ? ReadMessageText(r, parts.reply) : r.Skip();
  });
}

// `details` {`member`: n}: sets `out` when present.
bool ReadDetail(JsonReader& r, std::string_view member, std::optional<int64_t>& out,
                std::string_view other = {}, int64_t* other_out = nullptr) {
  Seen seen;
  return r.Object([&](std::string_view key) {
    if (key == member) return seen.First(0) && IntOrSkip(r, out.emplace(0));
    if (other_out && key == other) return seen.First(1) && IntOrSkip(r, *other_out);
    return r.Skip();
  });
}

bool ReadUsageText(JsonReader& r, ChatUsageFields& f) {
  Seen seen;
  return r.Object([&](std::string_view key) {
    if (key == "prompt_tokens") return seen.First(0) && IntOrSkip(r, f.prompt);
    if (key == "completion_tokens") return seen.First(1) && IntOrSkip(r, f.completion);
    if (key == "total_tokens") return seen.First(2) && IntOrSkip(r, f.total);
    if (key == "num_cached_tokens") return seen.First(3) && IntOrSkip(r, f.num_cached);
    if (key == "prompt_tokens_details") {
      if (!seen.First(4)) return false;
      if (r.Peek() != '{') return r.Skip();
      return ReadDetail(r, "cached_tokens", f.cached, "cache_write_tokens", &f.cache_write);
    }
    if (key != "completion_tokens_details") return r.Skip();
    if (!seen.First(5)) return false;
    return r.Peek() == '{' ? ReadDetail(r, "reasoning_tokens", f.reasoning) : r.Skip();
  });
}

}  // namespace

bool UsageFromFields(const ChatUsageFields& f, Usage& out) {
  out.input_tokens = f.prompt;
  out.output_tokens = f.completion;
  // OpenAI reports cache reads in prompt_tokens_details, OpenRouter its cache writes next to
  // them; Mistral replies without the details carry the reads as num_cached_tokens.
  out.cached_input_tokens = f.cached ? *f.cached : f.num_cached;
  out.cache_write_tokens = f.cache_write;
  if (!f.reasoning) return false;
  out.reasoning_tokens = *f.reasoning;
  // OpenAI counts reasoning inside completion_tokens; xAI outside it, which its total shows
  // (prompt + completion + reasoning). The engine's output_tokens always includes thinking.
  if (out.reasoning_tokens > 0 &&
      f.total == out.input_tokens + out.output_tokens + out.reasoning_tokens) {
    out.output_tokens += out.reasoning_tokens;
  }
  return true;
}

std::optional<ChatReplyParts> ChatPartsFromTree(const Json& root) {
  const Json* choices = root.find("choices");
  if (!choices || !choices->is_array() || choices->size() == 0 ||
      !choices->as_array()[0].is_object()) {
    return std::nullopt;
  }
  const Json& choice = choices->as_array()[0];
  ChatReplyParts parts;
  parts.reply.model = StringAt(root, "model");
  parts.finish = StringAt(choice, "finish_reason");
  if (const Json* msg = choice.find("message"); msg && msg->is_object()) {
    ReadMessage(*msg, parts.reply);
  }
  if (const Json* usage = root.find("usage"); usage && usage->is_object()) {
    parts.usage = UsageFieldsFromTree(*usage);
  }
  return parts;
}

std::optional<ChatReplyParts> ReadUsualChatReply(std::string_view body) {
  JsonReader r(body);
  ChatReplyParts parts;
  Seen seen;
  bool has_choice = false;
  bool ok = r.Object([&](std::string_view key) {
    if (key == "model") return seen.First(0) && StringOrSkip(r, parts.reply.model);
    if (key == "choices") {
      return seen.First(1) && r.Array([&] {
        if (has_choice) return r.Skip();
        has_choice = true;
        return ReadChoice(r, parts);
      });
    }
    if (key == "usage") {
      if (!seen.First(2)) return false;
      if (r.Peek() != '{') return r.Skip();
      return ReadUsageText(r, parts.usage.emplace());
    }
    return key != "error" && r.Skip();
  });
  if (!ok || !has_choice || !r.AtEnd()) return std::nullopt;
  return parts;
}

}  // namespace structure::providers
