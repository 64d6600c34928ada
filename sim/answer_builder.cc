#include "sim/answer_builder.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "sim/corrupt.h"
#include "sim/faithful.h"
#include "sim/grounding.h"
#include "sim/need_forms.h"

namespace structure::sim {
namespace {

constexpr const char* kRefusalText = "I'm sorry, but I can't help with that request.";
constexpr const char* kNeedText = "The input does not say which value to use for a required field.";

// Where a structured answer goes: a tool call (tool non-empty) or the content.
struct Target {
  std::string tool;
  SharedJson schema;  // null when the request states none
};

Target PickTarget(const ChatRequest& request, bool need) {
  Target t;
  if (request.mode == OutputMode::kTool && !request.tools.empty()) {
    const ToolSpec* pick = nullptr;
    for (const auto& tool : request.tools) {
      bool fits = !request.forced_tool.empty() ? tool.name == request.forced_tool
                  : need                       ? tool.name == kNeedTool
                                               : tool.name != kNeedTool;
      if (fits) {
        pick = &tool;
        break;
      }
    }
    if (!pick) {
      for (const auto& tool : request.tools) {
        if (tool.name != kNeedTool) pick = pick ? pick : &tool;
      }
    }
    if (!pick) pick = &request.tools[0];
    t.tool = pick->name;
    t.schema = pick->schema;
  } else if (request.mode == OutputMode::kJsonSchema) {
    t.schema = request.schema;
  }
  return t;
}

Answer Structured(const Target& target, const Json& value) {
  Answer a;
  if (!target.tool.empty()) {
    a.kind = Answer::Kind::kToolCall;
    a.tool_name = target.tool;
    a.tool_arguments = ToJson(value);
  } else {
    a.text = ToJson(value);
  }
  return a;
}

std::string Fence(const std::string& json) { return "```json\n" + json + "\n```"; }

std::string Prose(const std::string& json, const std::string& before, const std::string& after) {
  return (before.empty() ? "Here is the information extracted from the text:" : before) + "\n\n" +
         Fence(json) + "\n\n" + (after.empty() ? "Let me know if you need anything else." : after);
}

std::string Malform(const std::string& json, Rng& rng) {
  std::string s = json;
  switch (rng.Below(3)) {
    case 0: {  // trailing comma
      size_t last = s.rfind('}');
      if (last != std::string::npos && last > 1) return s.insert(last, ",");
      break;
    }
    case 1: {  // single-quoted key
      size_t q = s.find('"');
      if (q != std::string::npos) {
        size_t end = s.find('"', q + 1);
        if (end != std::string::npos) {
          s[q] = '\'';
          s[end] = '\'';
          return s;
        }
      }
      break;
    }
    default:
      break;
  }
  if (!s.empty() && (s.back() == '}' || s.back() == ']'))
    s.pop_back();  // missing close
  else
    s += "}";
  return s;
}

std::string Cut(const std::string& text, double keep) {
  size_t n = static_cast<size_t>(static_cast<double>(text.size()) * keep);
  if (text.size() > 1) n = std::clamp<size_t>(n, 1, text.size() - 1);
  return text.substr(0, n);
}

Answer Refusal(const std::string& text, bool safety) {
  Answer a;
  a.kind = safety ? Answer::Kind::kSafety : Answer::Kind::kRefusal;
  a.text = text.empty() ? kRefusalText : text;
  return a;
}

Answer NeedAnswer(const ChatRequest& request, const std::string& message, uint64_t seed) {
  std::string msg = message.empty() ? kNeedText : message;
  Target t = PickTarget(request, true);
  return Structured(t, GenerateNeed(*t.schema, msg, seed));
}

// A plain answer when no schema is known: text mode gets prose, JSON mode an object.
Json SchemalessObject() {
  Json o = Json::MakeObject();
  o.set("answer", "simulated");
  return o;
}

// On the prompted path (a model without structured outputs) the schema is in the system prompt,
// after "The JSON Schema:" (pipeline/loop/prompt.cc): the simulated model reads it there, as a
// real one would.
std::optional<Json> SchemaInPrompt(const ChatRequest& request) {
  static constexpr std::string_view kMarker = "\nThe JSON Schema:\n";
  std::string system = request.System();
  size_t at = system.rfind(kMarker);
  if (at == std::string::npos) return std::nullopt;
  Result<Json> schema = ParseJson(std::string_view(system).substr(at + kMarker.size()));
  if (!schema.ok() || !schema->is_object()) return std::nullopt;
  return *std::move(schema);
}

Answer ValidAnswer(const ChatRequest& request, uint64_t seed, std::string* error) {
  Target t = PickTarget(request, false);
  if (t.schema->is_null() || (t.schema->is_object() && t.schema->size() == 0)) {
    if (std::optional<Json> prompted = t.tool.empty() ? SchemaInPrompt(request) : std::nullopt) {
      if (auto value = GenerateAnswer(*prompted, seed); value.ok()) return Structured(t, *value);
    }
    if (t.tool.empty() && request.mode == OutputMode::kText) {
      Answer a;
      a.text = "This is a simulated answer from structure sim.";
      return a;
    }
    return Structured(t, SchemalessObject());
  }
  auto value = GenerateAnswer(*t.schema, seed);
  if (!value.ok()) {
    *error = value.status().message();
    return Structured(t, SchemalessObject());
  }
  return Structured(t, *value);
}

std::string& Payload(Answer& a) {
  return a.kind == Answer::Kind::kToolCall ? a.tool_arguments : a.text;
}

}  // namespace

Answer ScriptedAnswer(const ScriptedReply& reply, const ChatRequest& request, Rng& rng) {
  using K = ScriptedReply::Kind;
  Answer a;
  Target t = PickTarget(request, false);
  switch (reply.kind) {
    case K::kText:
      a.text = reply.text;
      break;
    case K::kJson:
      a = Structured(t, reply.value);
      break;
    case K::kNeed:
      a = NeedAnswer(request, reply.text, rng.Next());
      break;
    case K::kProseJson:
      a.text = Prose(ToJson(reply.value, true), reply.before, reply.after);
      break;
    case K::kFencedJson:
      a.text = Fence(ToJson(reply.value, true));
      break;
    case K::kRefusal:
      a = Refusal(reply.text, false);
      break;
    case K::kSafety:
      a = Refusal(reply.text, true);
      break;
    case K::kTruncated:
      a = Structured(t, reply.value);
      if (reply.value.is_string()) a.text = reply.value.as_string();
      Payload(a) = Cut(Payload(a), reply.keep);
      a.truncated = true;
      break;
    case K::kMalformed:
      a.text =
          reply.value.is_string() ? reply.value.as_string() : Malform(ToJson(reply.value), rng);
      break;
    case K::kError:
      a.kind = Answer::Kind::kHttpError;
      a.status = reply.status;
      a.text = reply.text;
      a.error_type = reply.error_type;
      break;
    case K::kToolCall:
      a.kind = Answer::Kind::kToolCall;
      a.tool_name = !reply.tool_name.empty() ? reply.tool_name : (t.tool.empty() ? "tool" : t.tool);
      a.tool_arguments = ToJson(reply.value);
      for (const auto& [name, args] : reply.more_calls)
        a.more_tool_calls.emplace_back(name, ToJson(args));
      break;
    case K::kReset:
      a.kind = Answer::Kind::kReset;
      break;
    case K::kExtract:
      a = FaithfulAnswer(reply.value, request);
      break;
    case K::kGenerate: {
      ContentFaults none;
      a = GeneratedAnswer(request, none, rng, reply.fault);
      break;
    }
  }
  a.headers.insert(a.headers.end(), reply.headers.begin(), reply.headers.end());
  if (reply.latency_ms) a.latency_ms = reply.latency_ms;
  if (reply.slow.chunk_bytes > 0) a.slow = reply.slow;
  return a;
}

Answer GeneratedAnswer(const ChatRequest& request, const ContentFaults& f, Rng& rng,
                       const std::string& forced_fault) {
  std::string fault = forced_fault;
  double u = rng.Uniform();
  if (fault.empty()) {
    const std::pair<const char*, double> table[] = {
        {"invalid", f.invalid}, {"need", f.need},           {"prose", f.prose},
        {"fence", f.fence},     {"malformed", f.malformed}, {"truncated", f.truncated},
        {"refusal", f.refusal}};
    double acc = 0;
    for (const auto& [name, rate] : table) {
      acc += rate;
      if (u < acc) {
        fault = name;
        break;
      }
    }
  }
  uint64_t seed = rng.Next();
  if (fault == "need") {
    Answer a = NeedAnswer(request, "", seed);
    a.faults.push_back("need");
    return a;
  }
  if (fault == "refusal") {
    Answer a = Refusal("", false);
    a.faults.push_back("refusal");
    return a;
  }
  std::string error;
  Answer a = ValidAnswer(request, seed, &error);
  if (!error.empty()) a.faults.push_back("generate_failed");
  if (Target t = PickTarget(request, false); !t.schema->is_null()) {
    // The evidence form: values and quotes from the prompt, one invented at f.ungrounded.
    auto parsed = ParseJson(Payload(a));
    if (parsed.ok() && GroundAnswer(*parsed, *t.schema, request.FirstUser(), f.ungrounded, rng)) {
      a.faults.push_back("ungrounded");
    }
    if (parsed.ok()) Payload(a) = ToJson(*parsed);
  }
  if (fault.empty()) return a;
  if (fault == "invalid") {
    auto parsed = ParseJson(Payload(a));
    Target t = PickTarget(request, false);
    if (parsed.ok() && !Corrupt(*t.schema, *parsed, rng).empty()) Payload(a) = ToJson(*parsed);
  } else if (fault == "prose" || fault == "fence") {
    std::string json = Payload(a);
    a.kind = Answer::Kind::kContent;  // a model that wraps JSON in prose did not call the tool
    a.text = fault == "prose" ? Prose(json, "", "") : Fence(json);
  } else if (fault == "malformed") {
    Payload(a) = Malform(Payload(a), rng);
  } else if (fault == "truncated") {
    Payload(a) = Cut(Payload(a), 0.3 + 0.4 * rng.Uniform());
    a.truncated = true;
  }
  a.faults.push_back(fault);
  return a;
}

void ApplyMaxTokens(const ChatRequest& request, Answer& answer) {
  if (answer.kind == Answer::Kind::kHttpError || answer.kind == Answer::Kind::kReset) return;
  answer.thinking_tokens = request.thinking_tokens;
  if (!request.max_tokens) return;
  int64_t left = *request.max_tokens - answer.thinking_tokens;
  if (left <= 0) {
    answer.thinking_tokens = *request.max_tokens;
    answer.kind = Answer::Kind::kContent;
    answer.text.clear();
    answer.truncated = true;
    return;
  }
  std::string& payload = Payload(answer);
  size_t cap = static_cast<size_t>(left) * 4;
  if (payload.size() <= cap) return;
  payload.resize(cap);
  answer.truncated = true;
}

int64_t AnswerTokens(const Answer& answer) {
  int64_t thinking = answer.thinking_tokens;
  if (answer.kind == Answer::Kind::kToolCall)
    return thinking + EstimateTokens(answer.tool_name) + EstimateTokens(answer.tool_arguments);
  return thinking + EstimateTokens(answer.text);
}

}  // namespace structure::sim
