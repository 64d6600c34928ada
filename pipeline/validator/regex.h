// ECMA-262 regular expressions (JSON Schema `pattern`, `patternProperties`, format "regex") on
// RE2, which runs in linear time. Patterns RE2 cannot express (look-around, back references,
// counted repetition above 1000) run on a small backtracking engine with a step limit.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "structure/status.h"

namespace re2 {
class RE2;
}

namespace structure::pipeline {

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
  bool Search(std::string_view subject, bool* step_limit_hit = nullptr) const {
    if (is_simple_) return SimpleMatch(subject);
    return SearchEngine(subject, step_limit_hit);
  }

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
    uint64_t bits[4];  // bytes in the set (bytes >= 0x80 never are)
    uint32_t min;
    uint32_t max;
    bool Has(unsigned char c) const { return (bits[c >> 6] >> (c & 63)) & 1; }
  };
  static bool ParseSimple(std::string_view pattern, std::vector<SimpleElement>* out);
  bool SimpleMatch(std::string_view s) const {
    if (s.size() < simple_min_length_ || s.size() > simple_max_length_) return false;
    const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
    if (!simple_fixed_.empty()) {  // the length is exact (checked above)
      for (size_t i = 0; i < s.size(); ++i) {
        if (!simple_fixed_[i].Has(p[i])) return false;
      }
      return true;
    }
    size_t pos = 0;
    for (const SimpleElement& e : simple_) {
      size_t start = pos;
      size_t end = s.size() - pos < e.max ? s.size() : pos + e.max;
      while (pos < end && e.Has(p[pos])) ++pos;
      if (pos - start < e.min) return false;
    }
    return pos == s.size();
  }
  // Search for patterns that are not simple: match-all, RE2 or the backtracking engine.
  bool SearchEngine(std::string_view subject, bool* step_limit_hit) const;

  std::vector<SimpleElement> simple_;
  size_t simple_min_length_ = 0;  // a subject outside [min, max] bytes cannot match
  size_t simple_max_length_ = 0;
  // When every element has a fixed count: the set each byte position must be in.
  std::vector<SimpleElement> simple_fixed_;
  bool is_simple_ = false;
  std::string source_;
  std::unique_ptr<re2::RE2> re2_;
  BacktrackerPtr backtracking_;
  uint64_t max_steps_ = 0;
  bool match_all_ = false;  // "" or ".*"-like patterns that need no engine call
};

}  // namespace structure::pipeline
