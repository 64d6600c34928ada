// ECMA-262 regular expressions (JSON Schema `pattern`, `patternProperties`, format "regex") on
// RE2, which runs in linear time. Patterns RE2 cannot express (look-around, back references,
// counted repetition above 1000) run on a small backtracking engine with a step limit.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace re2 {
class RE2;
}

namespace structure::pipeline {

// Translates an ECMA-262 pattern (unicode mode) into RE2 syntax: \d \w \s with ECMA meaning,
// `.` excluding line terminators, \uXXXX / \u{X} / surrogate pairs, \p{Letter} long names,
// named groups. Sets *needs_backtracking (and returns "") for look-around and back
// references. kInvalidArgument for syntax errors; strict additionally rejects identity
// escapes of letters (as the `u` flag does).
Result<std::string> TranslateEcmaRegex(std::string_view pattern, bool strict,
                                       bool* needs_backtracking);

// True when pattern is a valid ECMA-262 regular expression (format "regex").
bool IsValidEcmaRegex(std::string_view pattern);

// A compiled pattern. Thread-safe for concurrent Search calls.
class EcmaRegex {
 public:
  // max_steps bounds the backtracking engine per Search (unused for RE2 patterns).
  static Result<std::unique_ptr<EcmaRegex>> Compile(std::string_view pattern, uint64_t max_steps);
  ~EcmaRegex();

  // Unanchored search, as JSON Schema specifies. When the backtracking engine runs out of
  // steps, returns false and sets *step_limit_hit (if given).
  bool Search(std::string_view subject, bool* step_limit_hit = nullptr) const;

  bool uses_backtracking() const { return backtracking_ != nullptr; }
  const std::string& source() const { return source_; }

  struct Backtracker;  // defined in validator_backtrack.cc
  struct BacktrackerDeleter {
    void operator()(Backtracker* b) const;
  };
  using BacktrackerPtr = std::unique_ptr<Backtracker, BacktrackerDeleter>;

 private:
  EcmaRegex() = default;
  // Fast path for anchored sequences of ASCII sets, e.g. ^[A-Z]{2}-[0-9]{4,6}$: each
  // variable-length element is followed by a disjoint set, so greedy matching is exact.
  struct SimpleElement {
    uint64_t bits[2];
    uint32_t min;
    uint32_t max;
  };
  static bool ParseSimple(std::string_view pattern, std::vector<SimpleElement>* out);
  bool SimpleMatch(std::string_view subject) const;

  std::vector<SimpleElement> simple_;
  bool is_simple_ = false;
  std::string source_;
  std::unique_ptr<re2::RE2> re2_;
  BacktrackerPtr backtracking_;
  uint64_t max_steps_ = 0;
  bool match_all_ = false;  // "" or ".*"-like patterns that need no engine call
};

}  // namespace structure::pipeline
