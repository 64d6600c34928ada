#include "sim/scenario.h"

#include <re2/re2.h>

#include "base/read_file.h"
#include "sim/faithful.h"

namespace structure::sim {
namespace {

Status Bad(const std::string& where, const std::string& what) {
  return InvalidArgument(where + ": " + what);
}

Result<double> Rate(const Json& v, const std::string& where) {
  if (!v.is_number() || v.as_double() < 0 || v.as_double() > 1) {
    return Bad(where, "expected a probability between 0 and 1");
  }
  return v.as_double();
}

Status ParseHeaders(const Json& v, const std::string& where, std::vector<http::Header>& out) {
  if (!v.is_object()) return Bad(where, "expected an object of header names to string values");
  for (const auto& [name, value] : v.as_object()) {
    if (value.is_string())
      out.emplace_back(name, value.as_string());
    else if (value.is_number())
      out.emplace_back(name, ToJson(value));
    else
      return Bad(where + "." + name, "expected a string or number");
  }
  return Status::Ok();
}

Status ParseSlow(const Json& v, const std::string& where, SlowBody& out) {
  if (!v.is_object()) return Bad(where, "expected {\"chunk_bytes\": N, \"delay_ms\": N}");
  const Json* bytes = v.find("chunk_bytes");
  const Json* delay = v.find("delay_ms");
  out.chunk_bytes = bytes && bytes->is_integral() && bytes->as_int() > 0 ? bytes->as_int() : 64;
  out.delay_ms = delay && delay->is_integral() && delay->as_int() >= 0 ? delay->as_int() : 50;
  return Status::Ok();
}

Status ParseContentFaults(const Json& v, const std::string& where, ContentFaults& out) {
  if (!v.is_object()) return Bad(where, "expected an object of fault rates");
  for (const auto& [key, value] : v.as_object()) {
    auto r = Rate(value, where + "." + key);
    if (!r.ok()) return r.status();
    if (key == "invalid")
      out.invalid = *r;
    else if (key == "need")
      out.need = *r;
    else if (key == "prose")
      out.prose = *r;
    else if (key == "fence")
      out.fence = *r;
    else if (key == "malformed")
      out.malformed = *r;
    else if (key == "truncated")
      out.truncated = *r;
    else if (key == "refusal")
      out.refusal = *r;
    else if (key == "ungrounded")
      out.ungrounded = *r;
    else
      return Bad(where + "." + key,
                 "unknown content fault (invalid, need, prose, fence, "
                 "malformed, truncated, refusal)");
  }
  return Status::Ok();
}

Status ParseTransport(const Json& v, const std::string& where, TransportFaults& out) {
  if (!v.is_object()) return Bad(where, "expected an object");
  for (const auto& [key, value] : v.as_object()) {
    std::string at = where + "." + key;
    if (key == "http429" || key == "http5xx" || key == "reset" || key == "slow") {
      auto r = Rate(value, at);
      if (!r.ok()) return r.status();
      (key == "http429"   ? out.http429
       : key == "http5xx" ? out.http5xx
       : key == "reset"   ? out.reset
                          : out.slow) = *r;
    } else if (key == "http429_hint") {
      if (!value.is_string()) return Bad(at, "expected a string");
      auto h = ParseRetryHint(value.as_string());
      if (!h.ok()) return Bad(at, h.status().message());
      out.hint429 = *h;
    } else if (key == "retry_after_s") {
      if (!value.is_number() || value.as_double() < 0) return Bad(at, "expected seconds >= 0");
      out.retry_after_s = value.as_double();
    } else if (key == "slow_body") {
      STRUCTURE_RETURN_IF_ERROR(ParseSlow(value, at, out.slow_body));
    } else {
      return Bad(at,
                 "unknown transport setting (http429, http429_hint, retry_after_s, "
                 "http5xx, reset, slow, slow_body)");
    }
  }
  return Status::Ok();
}

struct KindName {
  const char* key;
  ScriptedReply::Kind kind;
};
constexpr KindName kKinds[] = {
    {"text", ScriptedReply::Kind::kText},
    {"json", ScriptedReply::Kind::kJson},
    {"need", ScriptedReply::Kind::kNeed},
    {"prose_json", ScriptedReply::Kind::kProseJson},
    {"fenced_json", ScriptedReply::Kind::kFencedJson},
    {"refusal", ScriptedReply::Kind::kRefusal},
    {"safety", ScriptedReply::Kind::kSafety},
    {"truncated", ScriptedReply::Kind::kTruncated},
    {"malformed", ScriptedReply::Kind::kMalformed},
    {"error", ScriptedReply::Kind::kError},
    {"tool_call", ScriptedReply::Kind::kToolCall},
    {"reset", ScriptedReply::Kind::kReset},
    {"generate", ScriptedReply::Kind::kGenerate},
    {"extract", ScriptedReply::Kind::kExtract},
};

Status ParseReplyBody(const std::string& key, const Json& v, const std::string& at,
                      ScriptedReply& out) {
  using K = ScriptedReply::Kind;
  switch (out.kind) {
    case K::kText:
    case K::kNeed:
    case K::kRefusal:
    case K::kSafety:
      if (v.is_string())
        out.text = v.as_string();
      else if (out.kind != K::kText && v.is_bool())
        out.text = "";
      else
        return Bad(at, "expected a string");
      return Status::Ok();
    case K::kJson:
    case K::kProseJson:
    case K::kFencedJson:
    case K::kTruncated:
    case K::kMalformed:
      out.value = v;
      return Status::Ok();
    case K::kReset:
      return Status::Ok();
    case K::kExtract:
      if (Status st = CheckExtractSpec(v); !st.ok()) return Bad(at, st.message());
      out.value = v;
      return Status::Ok();
    case K::kGenerate:
      if (v.is_string()) out.fault = v.as_string();
      return Status::Ok();
    case K::kToolCall: {
      // One call, or a list of calls answered in one reply.
      const Json::Array single{v};
      const Json::Array& calls = v.is_array() ? v.as_array() : single;
      if (calls.empty()) return Bad(at, "expected at least one call");
      for (size_t i = 0; i < calls.size(); ++i) {
        const Json& c = calls[i];
        std::string cat = v.is_array() ? at + "[" + std::to_string(i) + "]" : at;
        if (!c.is_object()) return Bad(cat, "expected {\"name\": ..., \"arguments\": {...}}");
        const Json* name = c.find("name");
        const Json* args = c.find("arguments");
        Json value = args ? *args : Json::MakeObject();
        if (i == 0) {
          if (name && name->is_string()) out.tool_name = name->as_string();
          out.value = std::move(value);
        } else {
          if (!name || !name->is_string()) return Bad(cat + ".name", "expected a tool name");
          out.more_calls.emplace_back(name->as_string(), std::move(value));
        }
      }
      return Status::Ok();
    }
    case K::kError: {
      if (!v.is_object())
        return Bad(at, "expected {\"status\": N, \"message\": ..., \"headers\": {...}}");
      const Json* status = v.find("status");
      if (!status || !status->is_integral() || status->as_int() < 400 || status->as_int() > 599) {
        return Bad(at + ".status", "expected an HTTP status 400..599");
      }
      out.status = static_cast<int>(status->as_int());
      const Json* message = v.find("message");
      out.text = message && message->is_string() ? message->as_string() : "simulated error";
      if (const Json* t = v.find("type"); t && t->is_string()) out.error_type = t->as_string();
      if (const Json* h = v.find("headers"))
        STRUCTURE_RETURN_IF_ERROR(ParseHeaders(*h, at + ".headers", out.headers));
      return Status::Ok();
    }
  }
  (void)key;
  return Status::Ok();
}

Status ParseShape(const Json& v, const std::string& at, ReplyShape& out) {
  auto shape = v.is_string() ? ParseReplyShape(v.as_string()) : ParseReplyShape("");
  if (!shape.ok()) return Bad(at, shape.status().message());
  out = *shape;
  return Status::Ok();
}

Result<ScriptedReply> ParseReply(const Json& v, const std::string& at) {
  if (!v.is_object()) return Bad(at, "expected a reply object such as {\"json\": {...}}");
  ScriptedReply out;
  const KindName* found = nullptr;
  for (const auto& k : kKinds) {
    if (!v.find(k.key)) continue;
    if (found)
      return Bad(
          at, std::string("a reply has one kind, found '") + found->key + "' and '" + k.key + "'");
    found = &k;
  }
  if (!found) {
    return Bad(at,
               "no reply kind (text, json, need, prose_json, fenced_json, refusal, safety, "
               "truncated, malformed, error, tool_call, reset, generate, extract)");
  }
  out.kind = found->kind;
  STRUCTURE_RETURN_IF_ERROR(
      ParseReplyBody(found->key, *v.find(found->key), at + "." + found->key, out));
  for (const auto& [key, value] : v.as_object()) {
    std::string k = at + "." + key;
    if (key == found->key) continue;
    if (key == "before" || key == "after") {
      if (!value.is_string()) return Bad(k, "expected a string");
      (key == "before" ? out.before : out.after) = value.as_string();
    } else if (key == "keep") {
      if (!value.is_number() || value.as_double() < 0 || value.as_double() > 1)
        return Bad(k, "expected 0..1");
      out.keep = value.as_double();
    } else if (key == "headers") {
      STRUCTURE_RETURN_IF_ERROR(ParseHeaders(value, k, out.headers));
    } else if (key == "latency_ms") {
      if (!value.is_integral() || value.as_int() < 0) return Bad(k, "expected milliseconds >= 0");
      out.latency_ms = static_cast<int>(value.as_int());
    } else if (key == "slow_body") {
      STRUCTURE_RETURN_IF_ERROR(ParseSlow(value, k, out.slow));
    } else if (key == "shape") {
      ReplyShape shape = ReplyShape::kStandard;
      STRUCTURE_RETURN_IF_ERROR(ParseShape(value, k, shape));
      out.shape = shape;
    } else {
      return Bad(k, "unknown reply field");
    }
  }
  return out;
}

Result<Rule> ParseRule(const Json& v, const std::string& at, size_t index) {
  if (!v.is_object()) return Bad(at, "expected a rule object");
  Rule rule;
  rule.name = "rule" + std::to_string(index);
  for (const auto& [key, value] : v.as_object()) {
    std::string k = at + "." + key;
    if (key == "name" || key == "contains" || key == "regex" || key == "in" || key == "model" ||
        key == "provider") {
      if (!value.is_string()) return Bad(k, "expected a string");
    }
    if (key == "name")
      rule.name = value.as_string();
    else if (key == "contains")
      rule.contains = value.as_string();
    else if (key == "model")
      rule.model = value.as_string();
    else if (key == "regex") {
      rule.regex = std::make_shared<re2::RE2>(value.as_string(), re2::RE2::Quiet);
      if (!rule.regex->ok()) return Bad(k, "bad regex: " + rule.regex->error());
    } else if (key == "in") {
      const std::string& s = value.as_string();
      if (s == "conversation")
        rule.scope = MatchScope::kConversation;
      else if (s == "last_user")
        rule.scope = MatchScope::kLastUser;
      else if (s == "first_user")
        rule.scope = MatchScope::kFirstUser;
      else if (s == "system")
        rule.scope = MatchScope::kSystem;
      else
        return Bad(k, "expected conversation, last_user, first_user or system");
    } else if (key == "provider") {
      const std::string& s = value.as_string();
      if (s == "openai")
        rule.provider = Provider::kOpenAi;
      else if (s == "anthropic")
        rule.provider = Provider::kAnthropic;
      else if (s == "gemini")
        rule.provider = Provider::kGemini;
      else if (s == "ollama")
        rule.provider = Provider::kOllama;
      else
        return Bad(k, "expected openai, anthropic, gemini or ollama");
    } else if (key == "replies" || key == "reply") {
      if (key == "reply") {
        auto r = ParseReply(value, k);
        if (!r.ok()) return r.status();
        rule.replies.push_back(std::move(*r));
        continue;
      }
      if (!value.is_array() || value.size() == 0)
        return Bad(k, "expected a non-empty array of replies");
      for (size_t i = 0; i < value.size(); ++i) {
        auto r = ParseReply(value.as_array()[i], k + "[" + std::to_string(i) + "]");
        if (!r.ok()) return r.status();
        rule.replies.push_back(std::move(*r));
      }
    } else {
      return Bad(k,
                 "unknown rule field (name, contains, regex, in, provider, model, replies, reply)");
    }
  }
  if (rule.replies.empty()) return Bad(at, "a rule needs \"replies\" (or \"reply\")");
  return rule;
}

}  // namespace

Result<RetryHint> ParseRetryHint(std::string_view name) {
  if (name == "retry-after") return RetryHint::kRetryAfter;
  if (name == "retry-after-ms") return RetryHint::kRetryAfterMs;
  if (name == "x-ratelimit") return RetryHint::kRateLimitHeaders;
  if (name == "none") return RetryHint::kNone;
  return InvalidArgument("unknown retry hint '" + std::string(name) +
                         "' (retry-after, retry-after-ms, x-ratelimit, none)");
}

Result<Scenario> ParseScenario(std::string_view text, const std::string& source) {
  ParseOptions options;
  options.source = source;
  auto doc = ParseJson(text, options);
  if (!doc.ok()) return doc.status();
  if (!doc->is_object()) return Bad(source, "a scenario is a JSON object");
  Scenario s;
  for (const auto& [key, value] : doc->as_object()) {
    std::string at = source + ": " + key;
    if (key == "seed") {
      if (!value.is_integral() || value.as_int() < 0) return Bad(at, "expected an integer >= 0");
      s.seed = static_cast<uint64_t>(value.as_int());
    } else if (key == "invalid_keys") {
      if (!value.is_array()) return Bad(at, "expected an array of strings");
      for (const auto& k : value.as_array()) {
        if (!k.is_string()) return Bad(at, "expected an array of strings");
        s.keys.invalid_keys.insert(k.as_string());
      }
    } else if (key == "latency") {
      if (!value.is_string()) return Bad(at, "expected a distribution such as \"uniform:100,300\"");
      s.latency = value.as_string();
    } else if (key == "rpm" || key == "tpm") {
      if (!value.is_integral() || value.as_int() < 0) return Bad(at, "expected an integer >= 0");
      (key == "rpm" ? s.rpm : s.tpm) = value.as_int();
    } else if (key == "grammar_budgets") {
      if (!value.is_object()) return Bad(at, "expected an object of model -> grammar size");
      for (const auto& [model, n] : value.as_object()) {
        if (!n.is_integral() || n.as_int() < 1)
          return Bad(at + "." + model, "expected an integer >= 1");
        s.grammar_budgets[model] = static_cast<size_t>(n.as_int());
      }
    } else if (key == "context_windows") {
      if (!value.is_object()) return Bad(at, "expected an object of model -> tokens");
      for (const auto& [model, n] : value.as_object()) {
        if (!n.is_integral() || n.as_int() < 1)
          return Bad(at + "." + model, "expected an integer >= 1");
        s.context_windows[model] = n.as_int();
      }
    } else if (key == "generate") {
      STRUCTURE_RETURN_IF_ERROR(ParseContentFaults(value, at, s.content));
    } else if (key == "transport") {
      STRUCTURE_RETURN_IF_ERROR(ParseTransport(value, at, s.transport));
    } else if (key == "rules") {
      if (!value.is_array()) return Bad(at, "expected an array of rules");
      for (size_t i = 0; i < value.size(); ++i) {
        auto rule = ParseRule(value.as_array()[i], at + "[" + std::to_string(i) + "]", i);
        if (!rule.ok()) return rule.status();
        s.rules.push_back(std::move(*rule));
      }
    } else if (key == "reply_shape") {
      STRUCTURE_RETURN_IF_ERROR(ParseShape(value, at, s.shape));
    } else if (key == "description" || key == "$comment") {
      continue;
    } else {
      return Bad(at,
                 "unknown scenario field (seed, invalid_keys, latency, rpm, tpm, "
                 "grammar_budgets, context_windows, generate, transport, reply_shape, rules, "
                 "description)");
    }
  }
  return s;
}

Result<Scenario> LoadScenario(const std::string& path) {
  auto text = ReadFile(path, kMaxFileBytes, "the scenario file limit");
  if (!text.ok()) return text.status();
  return ParseScenario(*text, path);
}

const Rule* MatchRule(const Scenario& scenario, const ChatRequest& request) {
  for (const auto& rule : scenario.rules) {
    if (rule.provider && *rule.provider != request.provider) continue;
    if (!rule.model.empty() && rule.model != request.model) continue;
    std::string text;
    switch (rule.scope) {
      case MatchScope::kConversation:
        text = request.Conversation();
        break;
      case MatchScope::kLastUser:
        text = request.LastUser();
        break;
      case MatchScope::kFirstUser:
        text = request.FirstUser();
        break;
      case MatchScope::kSystem:
        text = request.System();
        break;
    }
    if (!rule.contains.empty() && text.find(rule.contains) == std::string::npos) continue;
    if (rule.regex && !re2::RE2::PartialMatch(text, *rule.regex)) continue;
    return &rule;
  }
  return nullptr;
}

const ScriptedReply& ReplyFor(const Rule& rule, int attempt) {
  size_t i = attempt < 1 ? 0 : static_cast<size_t>(attempt - 1);
  return rule.replies[std::min(i, rule.replies.size() - 1)];
}

}  // namespace structure::sim
