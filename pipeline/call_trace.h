// A call's trace: every round of the content loop as plain data (what was sent, what came
// back, how it was judged and the reason text sent back). Opt-in per request (`trace: true`);
// the content loop records into it only when LoopState::trace is set, so a call without it
// pays nothing. Returned with the result (ResultToJson) for the console's playground.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "base/shared_json.h"
#include "providers/call.h"
#include "structure/status.h"

namespace structure::pipeline {

struct ValidationError;
struct Verdict;
struct EvidenceVerdict;

// One thing wrong with an answer: where (a JSON pointer into the user's shape, "" = root), the
// check that failed (a validator keyword, "parse", "evidence", "check", "need") and its line.
struct TraceIssue {
  std::string pointer;
  std::string keyword;
  std::string message;
};

// One provider call of the loop and what came of it.
struct TraceRound {
  int iteration = 0;   // the content iteration it belongs to (1-based)
  bool nudge = false;  // final-tool mode: its prose answer was nudged (not an iteration)
  // A split schema (pipeline/loop/split_loop.h): the part the call answered for (-1: a call for a
  // constraint that spans parts, or a schema asked whole) and the fields it answered.
  int part = -1;
  std::vector<std::string> fields;
  // Sent.
  std::string model;
  bool strict = true;  // the provider enforced `schema`; false: plain JSON, schema in the prompt
  SharedJson schema;   // the lowered schema sent (null when none was)
  std::string system;
  // Came back: the reply's text and tool calls, or the transport error.
  std::string answer;
  std::vector<providers::ToolCall> tool_calls;
  std::string finish;  // "stop", "length", "refusal", "safety", "tool_use"
  providers::Usage usage;
  std::string error;
  // Judged: "accepted", "rejected" (schema), "ungrounded" (evidence), "check" (a semantic
  // check), "need", "nudged", "error"; with the issues and the reason text sent back ("" when
  // the call ended there).
  std::string verdict;
  std::vector<TraceIssue> issues;
  std::string reason;
};

struct CallTrace {
  std::vector<TraceRound> rounds;
};

// Recording steps; each does nothing when `trace` is null.
void TraceSent(CallTrace* trace, const providers::ProviderCall& call, int iteration);
void TraceReply(CallTrace* trace, const Result<providers::ProviderReply>& reply);
// Sets the last round's verdict and adds `issues` to its issues (final-tool mode judges several
// calls of one reply). `reason` is the text sent back, "" when none was.
void TraceVerdict(CallTrace* trace, std::string_view verdict, std::vector<TraceIssue> issues = {},
                  std::string reason = "");

// Issues from validator errors (pointer and keyword kept) or from plain lines.
std::vector<TraceIssue> IssuesOf(const std::vector<ValidationError>& errors);
// A rejected answer's issues: its validator errors, else its lines as "parse" issues.
std::vector<TraceIssue> IssuesOf(const Verdict& verdict);
// Ungrounded values that are re-asked: keyword "evidence" at each value's pointer.
std::vector<TraceIssue> IssuesOf(const EvidenceVerdict& verdict);
std::vector<TraceIssue> IssuesOfLines(const std::vector<std::string>& lines,
                                      std::string_view keyword);

// {"rounds": [{"iteration", "nudge"?, "part"?, "fields"?, "model", "mode": "strict"|"fallback",
// "schema", "system", "answer", "toolCalls": [{"name","arguments"}], "finish", "usage", "error"?,
// "verdict", "issues": [{"pointer","keyword","message"}], "reason"?}]}
Json TraceToJson(const CallTrace& trace);

}  // namespace structure::pipeline
