// Scenario: what the simulator answers and which faults it injects, loaded from a JSON file
// (format in docs/simulator.md). Rules match the conversation and script replies per attempt;
// requests no rule matches get generative answers under the default fault rates.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "sim/chat.h"
#include "sim/dialect.h"
#include "structure/status.h"

namespace re2 {
class RE2;
}

namespace structure::sim {

// Probabilities (0..1) of content faults in generative answers. At most one applies per answer.
struct ContentFaults {
  double invalid = 0;     // a schema-constraint violation in an otherwise valid object
  double need = 0;        // the need answer ({"_need": ...} in the form the request allows)
  double prose = 0;       // JSON inside prose
  double fence = 0;       // JSON in a ```json code fence
  double malformed = 0;   // broken JSON syntax
  double truncated = 0;   // cut off, finish reason "length"
  double refusal = 0;     // the provider's decline signal
  double ungrounded = 0;  // evidence form: one value invented, its quote not in the prompt
};

// Probabilities of transport faults, applied to every provider request before answering.
struct TransportFaults {
  double http429 = 0;
  RetryHint hint429 = RetryHint::kRetryAfter;
  double retry_after_s = 1;
  double http5xx = 0;
  double reset = 0;
  double slow = 0;
  SlowBody slow_body{64, 50};
};

struct ScriptedReply {
  enum class Kind {
    kText,
    kJson,
    kNeed,
    kProseJson,
    kFencedJson,
    kRefusal,
    kSafety,
    kTruncated,
    kMalformed,
    kError,
    kToolCall,
    kReset,
    kGenerate,
    kExtract,  // the faithful answer (sim/faithful.h); `value` is its spec
  };
  Kind kind = Kind::kGenerate;
  std::string text;        // kText content, kNeed message, kRefusal text, kError message, ...
  Json value;              // kJson / kProseJson / kFencedJson / kTruncated / kMalformed / kToolCall
  std::string before;      // kProseJson: prose before the block
  std::string after;       // kProseJson: prose after it
  double keep = 0.5;       // kTruncated: fraction of the text kept
  int status = 0;          // kError
  std::string error_type;  // kError: provider error type override
  std::string tool_name;   // kToolCall (empty = the forced or first tool)
  // kToolCall given as a list: the calls after the first, in order (name, arguments).
  std::vector<std::pair<std::string, Json>> more_calls;
  std::string fault;  // kGenerate: force this content fault ("invalid", "need", ...)
  std::vector<http::Header> headers;  // added to the response
  std::optional<int> latency_ms;
  SlowBody slow;
  std::optional<ReplyShape> shape;  // overrides the scenario's reply shape for this reply
};

enum class MatchScope { kConversation, kLastUser, kFirstUser, kSystem };

struct Rule {
  std::string name;
  std::string contains;             // substring (empty = any)
  std::shared_ptr<re2::RE2> regex;  // partial match (null = any)
  MatchScope scope = MatchScope::kConversation;
  std::optional<Provider> provider;
  std::string model;                   // exact model (empty = any)
  std::vector<ScriptedReply> replies;  // replies[attempt-1]; the last one repeats
};

struct Scenario {
  std::optional<uint64_t> seed;
  KeyPolicy keys;
  std::string latency;  // a distribution spec ("fixed:500", "uniform:100,300", ...), "" = none
  int64_t rpm = 0;      // enforced requests per minute per provider; 0 = unlimited
  int64_t tpm = 0;      // enforced tokens per minute per provider; 0 = unlimited
  // Per model ("*": any other), the largest grammar (pipeline/lowering/measure.h) the provider
  // compiles from a request's strict schemas; past it, its "too large" error
  // (sim/grammar_budget.h).
  std::map<std::string, size_t> grammar_budgets;
  // Per model ("*": any other), the context window in tokens: a request whose prompt and output
  // cap together are past it gets the provider's context-length error (sim/context_window.h).
  std::map<std::string, int64_t> context_windows;
  ContentFaults content;
  TransportFaults transport;
  ReplyShape shape = ReplyShape::kStandard;  // the form of every answer ("reply_shape")
  std::vector<Rule> rules;
};

// Parses a scenario document. kInvalidArgument naming the JSON path of the first problem.
Result<Scenario> ParseScenario(std::string_view text, const std::string& source = "scenario");
Result<Scenario> LoadScenario(const std::string& path);

// The first rule matching the request, or nullptr.
const Rule* MatchRule(const Scenario& scenario, const ChatRequest& request);

// The reply for this attempt (1-based): replies[attempt-1], the last one repeating.
const ScriptedReply& ReplyFor(const Rule& rule, int attempt);

// "retry-after" | "retry-after-ms" | "x-ratelimit" | "none" → RetryHint.
Result<RetryHint> ParseRetryHint(std::string_view name);

}  // namespace structure::sim
