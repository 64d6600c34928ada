// Internal: the compiled program of the backtracking regex engine (validator_backtrack.h),
// shared by its parser (validator_backtrack_parse.cc) and its matcher (validator_backtrack.cc):
// a node array over code points, and the ECMA-262 character classes.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "pipeline/validator/regex.h"

namespace structure::pipeline {
namespace backtrack {

constexpr int kMaxGroupNesting = 100;
constexpr int kUnbounded = -1;

enum class RK {
  kEmpty,
  kSet,
  kAny,
  kBol,
  kEol,
  kWordBoundary,
  kNotWordBoundary,
  kGroup,
  kAlt,
  kSeq,
  kRepeat,
  kLook,
  kBackref
};

using Ranges = std::vector<std::pair<uint32_t, uint32_t>>;  // inclusive code point ranges

struct ClassItem {
  Ranges ranges;
  bool negate = false;
};

struct RNode {
  RK kind = RK::kEmpty;
  std::vector<ClassItem> items;  // kSet: matches if any item matches (xor class negation)
  bool negate = false;           // kSet negated class; kLook negative
  bool ahead = true;             // kLook direction
  std::vector<int> kids;         // kSeq, kAlt
  int child = -1;                // kGroup, kRepeat, kLook
  int group = -1;                // kGroup capture index (-1 = non-capturing), kBackref
  int min = 0, max = kUnbounded;
  bool greedy = true;
};

extern const Ranges kDigit;  // \d
extern const Ranges kWord;   // \w
extern const Ranges kSpace;  // \s: ECMA-262 WhiteSpace + LineTerminator

bool InRanges(const Ranges& ranges, uint32_t c);
bool IsWordChar(uint32_t c);
bool IsLineTerminator(uint32_t c);

}  // namespace backtrack

struct EcmaRegex::Backtracker {
  std::vector<backtrack::RNode> nodes;
  int root = -1;
  int groups = 0;
  bool anchored = false;
};

}  // namespace structure::pipeline
