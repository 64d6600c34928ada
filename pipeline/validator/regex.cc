#include "pipeline/validator/regex.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <re2/re2.h>

#include "pipeline/validator/backtrack.h"
#include "pipeline/validator/backtrack_parse.h"
#include "pipeline/validator/regex_translate.h"

namespace structure::pipeline {
namespace {

re2::RE2::Options Re2Options() {
  re2::RE2::Options options;
  options.set_log_errors(false);
  options.set_encoding(re2::RE2::Options::EncodingUTF8);
  options.set_dot_nl(false);
  options.set_max_mem(16 << 20);
  return options;
}

// The fast path's parts (EcmaRegex::ParseSimple): a set of bytes is four 64-bit words.
void SetRange(uint64_t* bits, int lo, int hi) {
  for (int c = lo; c <= hi; ++c) bits[c >> 6] |= uint64_t{1} << (c & 63);
}

bool IsPunct(char c) {
  return std::string_view("^$\\.*+?()[]{}|/-").find(c) != std::string_view::npos;
}

// A bracket set "[...]" of ASCII bytes, ranges, escaped punctuation and \d, at p[*i] == '['.
bool ParseSimpleClass(std::string_view p, size_t* i, uint64_t* bits) {
  size_t j = *i + 1;
  if (j < p.size() && p[j] == '^') return false;
  while (j < p.size() && p[j] != ']') {
    int lo;
    if (p[j] == '\\') {
      if (j + 1 >= p.size()) return false;
      char x = p[j + 1];
      if (x == 'd') {
        SetRange(bits, '0', '9');
        j += 2;
        continue;
      }
      if (!IsPunct(x)) return false;
      lo = x;
      j += 2;
    } else {
      if (static_cast<unsigned char>(p[j]) >= 0x80 || p[j] == '[') return false;
      lo = p[j++];
    }
    if (j + 1 < p.size() && p[j] == '-' && p[j + 1] != ']') {
      int hi = static_cast<unsigned char>(p[j + 1]);
      if (hi == '\\' || hi == '[' || hi >= 0x80 || hi < lo) return false;
      SetRange(bits, lo, hi);
      j += 2;
    } else {
      SetRange(bits, lo, lo);
    }
  }
  if (j >= p.size()) return false;
  *i = j + 1;
  return true;
}

bool ParseCount(std::string_view t, uint32_t* v) {
  if (t.empty() || t.size() > 6) return false;
  *v = 0;
  for (char d : t) {
    if (d < '0' || d > '9') return false;
    *v = *v * 10 + (d - '0');
  }
  return true;
}

// An optional quantifier (+ * ? {n} {n,} {n,m}) at p[*i]; a second one in a row is refused.
bool ParseSimpleQuantifier(std::string_view p, size_t* i, uint32_t* min, uint32_t* max) {
  if (*i >= p.size()) return true;
  char q = p[*i];
  if (q == '+') {
    *max = UINT32_MAX, ++*i;
  } else if (q == '*') {
    *min = 0, *max = UINT32_MAX, ++*i;
  } else if (q == '?') {
    *min = 0, ++*i;
  } else if (q == '{') {
    size_t close = p.find('}', *i);
    if (close == std::string_view::npos) return false;
    std::string_view body = p.substr(*i + 1, close - *i - 1);
    size_t comma = body.find(',');
    if (comma == std::string_view::npos) {
      if (!ParseCount(body, min)) return false;
      *max = *min;
    } else {
      if (!ParseCount(body.substr(0, comma), min)) return false;
      if (comma + 1 == body.size()) {
        *max = UINT32_MAX;
      } else if (!ParseCount(body.substr(comma + 1), max) || *max < *min) {
        return false;
      }
    }
    *i = close + 1;
  }
  return !(*i < p.size() && (p[*i] == '?' || p[*i] == '+' || p[*i] == '*' || p[*i] == '{'));
}

}  // namespace

bool IsValidEcmaRegex(std::string_view pattern) {
  bool backtracking = false;
  Result<std::string> translated = TranslateEcmaRegex(pattern, /*strict=*/true, &backtracking);
  if (!translated.ok()) return false;
  if (backtracking) return CompileBacktracker(pattern).ok();
  re2::RE2 re(*translated, Re2Options());
  return re.ok() || CompileBacktracker(pattern).ok();
}

EcmaRegex::~EcmaRegex() = default;

bool EcmaRegex::ParseSimple(std::string_view p, std::vector<SimpleElement>* out) {
  if (p.size() < 2 || p.front() != '^' || p.back() != '$') return false;
  p = p.substr(1, p.size() - 2);
  size_t i = 0;
  while (i < p.size()) {
    SimpleElement e{{0, 0, 0, 0}, 1, 1};
    char c = p[i];
    if (static_cast<unsigned char>(c) >= 0x80) return false;
    if (c == '\\') {
      if (i + 1 >= p.size()) return false;
      char x = p[i + 1];
      if (x == 'd') {
        SetRange(e.bits, '0', '9');
      } else if (IsPunct(x)) {
        SetRange(e.bits, x, x);
      } else {
        return false;
      }
      i += 2;
    } else if (c == '[') {
      if (!ParseSimpleClass(p, &i, e.bits)) return false;
    } else if (std::string_view("^$.*+?()[]{}|").find(c) != std::string_view::npos) {
      return false;
    } else {
      SetRange(e.bits, c, c);
      ++i;
    }
    if (!ParseSimpleQuantifier(p, &i, &e.min, &e.max)) return false;
    out->push_back(e);
  }
  for (size_t k = 0; k < out->size(); ++k) {
    const SimpleElement& e = (*out)[k];
    if (e.min == e.max || k + 1 == out->size()) continue;
    const SimpleElement& next = (*out)[k + 1];
    if (next.min == 0) return false;
    if ((e.bits[0] & next.bits[0]) || (e.bits[1] & next.bits[1])) return false;
  }
  return true;
}

Result<std::unique_ptr<EcmaRegex>> EcmaRegex::Compile(std::string_view pattern,
                                                      uint64_t max_steps) {
  std::unique_ptr<EcmaRegex> regex(new EcmaRegex());
  regex->source_ = std::string(pattern);
  regex->max_steps_ = max_steps;
  bool backtracking = false;
  Result<std::string> translated = TranslateEcmaRegex(pattern, /*strict=*/false, &backtracking);
  if (!translated.ok()) {
    return InvalidArgument("invalid pattern \"" + regex->source_ +
                           "\": " + translated.status().message());
  }
  if (backtracking) {
    Result<BacktrackerPtr> bt = CompileBacktracker(pattern);
    if (!bt.ok()) {
      return InvalidArgument("pattern \"" + regex->source_ +
                             "\" is not supported: " + bt.status().message());
    }
    regex->backtracking_ = std::move(*bt);
    return regex;
  }
  if (translated->empty() || *translated == "[^\\n\\r\\x{2028}\\x{2029}]*") {
    regex->match_all_ = true;
    return regex;
  }
  regex->re2_ = std::make_unique<re2::RE2>(*translated, Re2Options());
  if (!regex->re2_->ok()) {
    // RE2 refuses some valid patterns for their size (nested counts past its repeat limit, very
    // large Unicode classes past its memory budget): they run on the backtracking engine.
    Result<BacktrackerPtr> bt = CompileBacktracker(pattern);
    if (!bt.ok()) {
      return InvalidArgument("pattern \"" + regex->source_ +
                             "\" is not supported: " + regex->re2_->error());
    }
    regex->re2_.reset();
    regex->backtracking_ = std::move(*bt);
    return regex;
  }
  if (ParseSimple(pattern, &regex->simple_)) {
    regex->is_simple_ = true;
    for (const SimpleElement& e : regex->simple_) {
      regex->simple_min_length_ += e.min;
      bool unbounded = e.max == UINT32_MAX || regex->simple_max_length_ == SIZE_MAX;
      regex->simple_max_length_ = unbounded ? SIZE_MAX : regex->simple_max_length_ + e.max;
    }
    if (regex->simple_min_length_ == regex->simple_max_length_ &&
        regex->simple_max_length_ <= 256) {
      for (const SimpleElement& e : regex->simple_)
        regex->simple_fixed_.insert(regex->simple_fixed_.end(), e.min, e);
    }
  }
  return regex;
}

bool EcmaRegex::SearchEngine(std::string_view subject, bool* step_limit_hit) const {
  if (match_all_) return true;
  if (backtracking_) return BacktrackSearch(*backtracking_, subject, max_steps_, step_limit_hit);
  return re2::RE2::PartialMatch(re2::StringPiece(subject.data(), subject.size()), *re2_);
}

}  // namespace structure::pipeline
