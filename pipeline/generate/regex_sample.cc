#include "pipeline/generate/regex_sample.h"

#include <memory>
#include <random>
#include <utility>
#include <vector>

#include <re2/re2.h>

#include "base/hex.h"
#include "base/utf8.h"

namespace structure::pipeline {
namespace {

struct Range {
  uint32_t lo, hi;
};

struct Node {
  enum Kind { kConcat, kAlt, kRepeat, kSet, kAnchor } kind = kConcat;
  std::vector<Node> children;  // concat / alt / repeat (one child)
  std::vector<Range> ranges;   // set
  bool negated = false;        // set
  size_t min = 0, max = 0;     // repeat; max == kUnbounded means open
};

constexpr size_t kUnbounded = static_cast<size_t>(-1);

const std::vector<Range> kDigit = {{'0', '9'}};
const std::vector<Range> kWord = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
const std::vector<Range> kSpace = {{' ', ' '}, {'\t', '\r'}};

class Parser {
 public:
  Parser(std::string_view pattern, size_t max_count)
      : cps_(DecodeUtf8(pattern)), max_count_(max_count) {}

  Result<Node> Parse() {
    Node n = ParseAlt();
    if (!error_.empty()) return InvalidArgument(error_);
    if (pos_ < cps_.size()) return InvalidArgument("unbalanced ')' in pattern");
    return n;
  }

  bool simple() const { return simple_; }

 private:
  bool AtEnd() const { return pos_ >= cps_.size(); }
  uint32_t Peek() const { return cps_[pos_]; }
  void Fail(std::string m) {
    if (error_.empty()) error_ = std::move(m);
    pos_ = cps_.size();
  }

  Node ParseAlt() {
    Node alt;
    alt.kind = Node::kAlt;
    alt.children.push_back(ParseConcat());
    while (!AtEnd() && Peek() == '|') {
      ++pos_;
      alt.children.push_back(ParseConcat());
    }
    if (alt.children.size() == 1) return std::move(alt.children[0]);
    return alt;
  }

  Node ParseConcat() {
    Node cat;
    while (!AtEnd() && Peek() != '|' && Peek() != ')') {
      Node atom = ParseAtom();
      if (!error_.empty()) return cat;
      ParseQuantifier(atom);
      cat.children.push_back(std::move(atom));
    }
    return cat;
  }

  void ParseQuantifier(Node& atom) {
    while (!AtEnd()) {
      uint32_t c = Peek();
      size_t mn, mx;
      if (c == '*') {
        mn = 0, mx = kUnbounded, ++pos_;
      } else if (c == '+') {
        mn = 1, mx = kUnbounded, ++pos_;
      } else if (c == '?') {
        mn = 0, mx = 1, ++pos_;
      } else if (c == '{' && ParseCount(mn, mx)) {
      } else {
        return;
      }
      if (!AtEnd() && Peek() == '?') ++pos_;  // lazy: same language
      if ((mx != kUnbounded && mx > max_count_) || mn > max_count_) simple_ = false;
      if (mn > 1000 || (mx != kUnbounded && mx > 1000)) {
        Fail("repetition count above 1000 in pattern");
        return;
      }
      Node rep;
      rep.kind = Node::kRepeat;
      rep.min = mn;
      rep.max = mx;
      rep.children.push_back(std::move(atom));
      atom = std::move(rep);
    }
  }

  // {n}, {n,}, {n,m}; a '{' that does not start a count is a literal (ECMA annex B).
  bool ParseCount(size_t& mn, size_t& mx) {
    size_t p = pos_ + 1;
    auto number = [&](size_t& out) {
      size_t start = p;
      out = 0;
      while (p < cps_.size() && cps_[p] >= '0' && cps_[p] <= '9' && p - start < 7) {
        out = out * 10 + (cps_[p] - '0');
        ++p;
      }
      return p > start;
    };
    if (!number(mn)) return false;
    mx = mn;
    if (p < cps_.size() && cps_[p] == ',') {
      ++p;
      if (!number(mx)) mx = kUnbounded;
    }
    if (p >= cps_.size() || cps_[p] != '}') return false;
    if (mx < mn) return false;
    pos_ = p + 1;
    return true;
  }

  static Node Set(std::vector<Range> r, bool negated = false) {
    Node n;
    n.kind = Node::kSet;
    n.ranges = std::move(r);
    n.negated = negated;
    return n;
  }

  Node ParseAtom() {
    uint32_t c = Peek();
    ++pos_;
    switch (c) {
      case '(':
        return ParseGroup();
      case '[':
        return ParseClass();
      case '.':
        return Set({{'\n', '\n'}, {'\r', '\r'}}, true);
      case '^':
      case '$': {
        Node n;
        n.kind = Node::kAnchor;
        return n;
      }
      case '\\':
        return ParseEscape(false);
      case '*':
      case '+':
      case '?':
        Fail("nothing to repeat in pattern");
        return Node{};
      default:
        return Set({{c, c}});
    }
  }

  Node ParseGroup() {
    if (!AtEnd() && Peek() == '?') {
      ++pos_;
      if (AtEnd()) {
        Fail("bad group in pattern");
        return Node{};
      }
      uint32_t k = Peek();
      if (k == ':') {
        ++pos_;
      } else if (k == '<' && pos_ + 1 < cps_.size() && cps_[pos_ + 1] != '=' &&
                 cps_[pos_ + 1] != '!') {
        while (!AtEnd() && Peek() != '>') ++pos_;
        ++pos_;
      } else {
        simple_ = false;
        Fail("lookaround is not supported in pattern");
        return Node{};
      }
    }
    Node inner = ParseAlt();
    if (AtEnd() || Peek() != ')') {
      Fail("missing ')' in pattern");
      return Node{};
    }
    ++pos_;
    return inner;
  }

  uint32_t ParseHex(size_t digits) {
    uint32_t v = 0;
    for (size_t i = 0; i < digits; ++i) {
      if (AtEnd()) return v;
      uint32_t h = Peek();
      int d = HexDigitValue(h);
      if (d < 0) return v;
      v = v * 16 + d;
      ++pos_;
    }
    return v;
  }

  Node ParseEscape(bool in_class) {
    if (AtEnd()) {
      Fail("trailing backslash in pattern");
      return Node{};
    }
    uint32_t c = Peek();
    ++pos_;
    switch (c) {
      case 'd':
        return Set(kDigit);
      case 'D':
        return Set(kDigit, true);
      case 'w':
        return Set(kWord);
      case 'W':
        return Set(kWord, true);
      case 's':
        return Set(kSpace);
      case 'S':
        return Set(kSpace, true);
      case 'n':
        return Set({{'\n', '\n'}});
      case 't':
        return Set({{'\t', '\t'}});
      case 'r':
        return Set({{'\r', '\r'}});
      case 'f':
        return Set({{'\f', '\f'}});
      case 'v':
        return Set({{'\v', '\v'}});
      case '0':
        return Set({{0, 0}});
      case 'x': {
        uint32_t v = ParseHex(2);
        return Set({{v, v}});
      }
      case 'u': {
        uint32_t v;
        if (!AtEnd() && Peek() == '{') {
          ++pos_;
          v = ParseHex(6);
          if (!AtEnd() && Peek() == '}') ++pos_;
        } else {
          v = ParseHex(4);
        }
        return Set({{v, v}});
      }
      case 'b':
        if (in_class) return Set({{8, 8}});
        [[fallthrough]];
      case 'B': {
        simple_ = false;
        Node n;
        n.kind = Node::kAnchor;
        return n;
      }
      default:
        if (c >= '1' && c <= '9') {
          simple_ = false;
          Fail("back references are not supported in pattern");
          return Node{};
        }
        return Set({{c, c}});
    }
  }

  Node ParseClass() {
    bool negated = false;
    if (!AtEnd() && Peek() == '^') {
      negated = true;
      ++pos_;
    }
    std::vector<Range> ranges;
    while (!AtEnd() && Peek() != ']') {
      std::vector<Range> item;
      uint32_t c = Peek();
      ++pos_;
      if (c == '\\') {
        Node e = ParseEscape(true);
        if (e.negated) {
          Fail("negated escape inside a class is not supported by the sampler");
          return Node{};
        }
        item = e.ranges;
      } else {
        item = {{c, c}};
      }
      if (item.size() == 1 && item[0].lo == item[0].hi && pos_ + 1 < cps_.size() && Peek() == '-' &&
          cps_[pos_ + 1] != ']') {
        ++pos_;
        uint32_t hi = Peek();
        ++pos_;
        if (hi == '\\') {
          Node e = ParseEscape(true);
          if (e.ranges.size() != 1 || e.ranges[0].lo != e.ranges[0].hi) {
            Fail("bad range in class");
            return Node{};
          }
          hi = e.ranges[0].lo;
        }
        if (hi < item[0].lo) {
          Fail("range out of order in class");
          return Node{};
        }
        item[0].hi = hi;
      }
      ranges.insert(ranges.end(), item.begin(), item.end());
    }
    if (AtEnd()) {
      Fail("missing ']' in pattern");
      return Node{};
    }
    ++pos_;
    return Set(std::move(ranges), negated);
  }

  std::vector<uint32_t> cps_;
  size_t pos_ = 0;
  size_t max_count_;
  bool simple_ = true;
  std::string error_;
};

class Sampler {
 public:
  Sampler(uint64_t seed, size_t open_cap) : rng_(seed), open_cap_(open_cap) {}

  bool Emit(const Node& n, std::string& out) {
    switch (n.kind) {
      case Node::kAnchor:
        return true;
      case Node::kConcat:
        for (const Node& c : n.children)
          if (!Emit(c, out)) return false;
        return true;
      case Node::kAlt:
        return Emit(n.children[Pick(n.children.size())], out);
      case Node::kRepeat: {
        size_t hi = n.max == kUnbounded ? n.min + open_cap_ : n.max;
        size_t count = n.min + Pick(hi - n.min + 1);
        for (size_t i = 0; i < count; ++i)
          if (!Emit(n.children[0], out)) return false;
        return true;
      }
      case Node::kSet: {
        uint32_t cp;
        if (!PickChar(n, cp)) return false;
        AppendUtf8(out, cp);
        return true;
      }
    }
    return false;
  }

 private:
  size_t Pick(size_t n) { return n <= 1 ? 0 : rng_() % n; }

  static bool InRanges(const std::vector<Range>& r, uint32_t c) {
    for (const Range& x : r)
      if (c >= x.lo && c <= x.hi) return true;
    return false;
  }

  bool PickChar(const Node& n, uint32_t& cp) {
    if (!n.negated) {
      if (n.ranges.empty()) return false;
      // Prefer printable ASCII inside a range so samples stay readable.
      const Range& r = n.ranges[Pick(n.ranges.size())];
      cp = r.lo + static_cast<uint32_t>(Pick(static_cast<size_t>(r.hi - r.lo) + 1));
      if (cp >= 0xd800 && cp <= 0xdfff) cp = r.lo;
      return true;
    }
    for (int attempt = 0; attempt < 64; ++attempt) {
      uint32_t c = 0x21 + static_cast<uint32_t>(Pick(0x7e - 0x21 + 1));
      if (!InRanges(n.ranges, c)) {
        cp = c;
        return true;
      }
    }
    for (uint32_t c = 0x20; c < 0x3000; ++c)
      if (!InRanges(n.ranges, c)) {
        cp = c;
        return true;
      }
    return false;
  }

  std::mt19937_64 rng_;
  size_t open_cap_;
};

// ECMA-262 \uXXXX and \u{X...} are RE2's \x{XXXX}.
std::string ToRe2Syntax(std::string_view p) {
  std::string out;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\' && i + 1 < p.size()) {
      if (p[i + 1] == 'u' && i + 5 < p.size() + 0 && p[i + 2] != '{') {
        out += "\\x{" + std::string(p.substr(i + 2, 4)) + "}";
        i += 5;
        continue;
      }
      if (p[i + 1] == 'u' && i + 2 < p.size() && p[i + 2] == '{') {
        out += "\\x";
        i += 1;
        continue;
      }
      out += p.substr(i, 2);
      ++i;
      continue;
    }
    out += p[i];
  }
  return out;
}

}  // namespace

size_t CodePointCount(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xc0) != 0x80) ++n;
  return n;
}

bool IsSimpleRegex(std::string_view pattern, size_t max_count) {
  Parser p(pattern, max_count);
  Result<Node> n = p.Parse();
  return n.ok() && p.simple();
}

Result<std::string> SampleRegexMatch(std::string_view pattern, uint64_t seed, size_t min_length,
                                     size_t max_length) {
  Parser parser(pattern, 1000);
  Result<Node> ast = parser.Parse();
  if (!ast.ok()) return ast.status();
  RE2::Options opts;
  opts.set_log_errors(false);
  opts.set_max_mem(8 << 20);
  RE2 re(ToRe2Syntax(pattern), opts);
  if (!re.ok()) return InvalidArgument("pattern does not compile: " + re.error());
  bool anchored_end = !pattern.empty() && pattern.back() == '$' &&
                      (pattern.size() < 2 || pattern[pattern.size() - 2] != '\\');
  for (int attempt = 0; attempt < 40; ++attempt) {
    Sampler sampler(seed * 7919 + attempt, attempt < 20 ? 3 : (attempt < 30 ? 1 : 8));
    std::string s;
    if (!sampler.Emit(*ast, s)) continue;
    if (!anchored_end)
      while (CodePointCount(s) < min_length) s += 'a';
    size_t len = CodePointCount(s);
    if (len < min_length || len > max_length) continue;
    if (RE2::PartialMatch(s, re)) return s;
  }
  return InvalidArgument("could not sample a string matching pattern '" + std::string(pattern) +
                         "' within the length bounds");
}

}  // namespace structure::pipeline
