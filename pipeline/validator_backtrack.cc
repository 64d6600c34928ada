// A continuation-passing backtracking matcher over code points. Bounded three ways: a step
// budget per search, a nesting bound on the matcher's own recursion, and single-character
// repetitions that loop instead of recursing.
#include "pipeline/validator_backtrack.h"

#include <string>
#include <vector>

namespace structure::pipeline {
namespace {

constexpr int kMaxRecursion = 2000;
constexpr int kMaxGroupNesting = 100;
constexpr int kUnbounded = -1;

enum class RK { kEmpty, kSet, kAny, kBol, kEol, kWordBoundary, kNotWordBoundary, kGroup, kAlt, kSeq,
                kRepeat, kLook, kBackref };

struct ClassItem {
  std::vector<std::pair<uint32_t, uint32_t>> ranges;
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

const std::vector<std::pair<uint32_t, uint32_t>> kDigit = {{'0', '9'}};
const std::vector<std::pair<uint32_t, uint32_t>> kWord = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
const std::vector<std::pair<uint32_t, uint32_t>> kSpace = {
    {9, 13}, {32, 32}, {0xA0, 0xA0}, {0x1680, 0x1680}, {0x2000, 0x200A}, {0x2028, 0x2029},
    {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}, {0xFEFF, 0xFEFF}};

bool InRanges(const std::vector<std::pair<uint32_t, uint32_t>>& ranges, uint32_t c) {
  for (const auto& [lo, hi] : ranges) {
    if (c >= lo && c <= hi) return true;
  }
  return false;
}

bool IsWordChar(uint32_t c) { return InRanges(kWord, c); }
bool IsLineTerminator(uint32_t c) { return c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029; }

std::vector<uint32_t> DecodeUtf8(std::string_view s) {
  std::vector<uint32_t> out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    if (i + n > s.size()) n = 1;
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.push_back(cp);
    i += n;
  }
  return out;
}

}  // namespace

struct EcmaRegex::Backtracker {
  std::vector<RNode> nodes;
  int root = -1;
  int groups = 0;
  bool anchored = false;
};

void EcmaRegex::BacktrackerDeleter::operator()(Backtracker* b) const { delete b; }

namespace {

class Parser {
 public:
  Parser(std::u32string_view p, EcmaRegex::Backtracker* prog) : p_(p), prog_(prog) {}

  Status Run() {
    prog_->root = Alternation(0);
    if (error_.empty() && i_ < p_.size()) error_ = "unmatched )";
    if (!error_.empty()) return InvalidArgument(error_);
    return Status::Ok();
  }

 private:
  int Add(RNode node) {
    prog_->nodes.push_back(std::move(node));
    return static_cast<int>(prog_->nodes.size()) - 1;
  }
  bool More() const { return i_ < p_.size() && error_.empty(); }

  int Alternation(int nesting) {
    if (nesting > kMaxGroupNesting) {
      error_ = "groups nested too deeply";
      return Add({});
    }
    std::vector<int> alts{Sequence(nesting)};
    while (More() && p_[i_] == '|') {
      ++i_;
      alts.push_back(Sequence(nesting));
    }
    if (alts.size() == 1) return alts[0];
    RNode n;
    n.kind = RK::kAlt;
    n.kids = std::move(alts);
    return Add(std::move(n));
  }

  int Sequence(int nesting) {
    RNode seq;
    seq.kind = RK::kSeq;
    while (More() && p_[i_] != '|' && p_[i_] != ')') {
      int atom = Atom(nesting);
      if (!error_.empty()) break;
      seq.kids.push_back(Quantified(atom));
    }
    return Add(std::move(seq));
  }

  bool ReadInt(int* v) {
    size_t start = i_;
    long long value = 0;
    while (i_ < p_.size() && p_[i_] >= '0' && p_[i_] <= '9') {
      value = std::min<long long>(value * 10 + (p_[i_] - '0'), 1000000);
      ++i_;
    }
    *v = static_cast<int>(value);
    return i_ > start;
  }

  int Quantified(int atom) {
    if (!More()) return atom;
    int min, max;
    char32_t c = p_[i_];
    size_t save = i_;
    if (c == '*') {
      min = 0, max = kUnbounded, ++i_;
    } else if (c == '+') {
      min = 1, max = kUnbounded, ++i_;
    } else if (c == '?') {
      min = 0, max = 1, ++i_;
    } else if (c == '{') {
      ++i_;
      if (!ReadInt(&min)) {
        i_ = save;
        return atom;
      }
      max = min;
      if (i_ < p_.size() && p_[i_] == ',') {
        ++i_;
        if (!ReadInt(&max)) max = kUnbounded;
      }
      if (i_ >= p_.size() || p_[i_] != '}') {
        i_ = save;
        return atom;
      }
      ++i_;
      if (max != kUnbounded && max < min) error_ = "numbers out of order in {} quantifier";
    } else {
      return atom;
    }
    RK kind = prog_->nodes[atom].kind;
    if (kind == RK::kBol || kind == RK::kEol || kind == RK::kWordBoundary || kind == RK::kNotWordBoundary) {
      error_ = "nothing to repeat";
    }
    RNode r;
    r.kind = RK::kRepeat;
    r.child = atom;
    r.min = min;
    r.max = max;
    if (i_ < p_.size() && p_[i_] == '?') {
      r.greedy = false;
      ++i_;
    }
    return Add(std::move(r));
  }

  static int Hex(char32_t c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool ReadHex(size_t n, uint32_t* v) {
    if (i_ + n > p_.size()) return false;
    *v = 0;
    for (size_t k = 0; k < n; ++k) {
      int h = Hex(p_[i_ + k]);
      if (h < 0) return false;
      *v = *v * 16 + h;
    }
    i_ += n;
    return true;
  }

  // After a backslash: a class escape (sets *item) or one code point (sets *cp).
  bool Escape(bool in_class, ClassItem* item, uint32_t* cp, bool* is_item) {
    *is_item = false;
    if (i_ >= p_.size()) {
      error_ = "trailing backslash";
      return false;
    }
    char32_t c = p_[i_++];
    auto set = [&](const std::vector<std::pair<uint32_t, uint32_t>>& r, bool neg) {
      item->ranges = r;
      item->negate = neg;
      *is_item = true;
      return true;
    };
    switch (c) {
      case 'd': return set(kDigit, false);
      case 'D': return set(kDigit, true);
      case 'w': return set(kWord, false);
      case 'W': return set(kWord, true);
      case 's': return set(kSpace, false);
      case 'S': return set(kSpace, true);
      case 't': *cp = '\t'; return true;
      case 'n': *cp = '\n'; return true;
      case 'r': *cp = '\r'; return true;
      case 'f': *cp = '\f'; return true;
      case 'v': *cp = 0x0B; return true;
      case '0': *cp = 0; return true;
      case 'b':
        if (in_class) {
          *cp = 8;
          return true;
        }
        break;
      case 'x':
        if (ReadHex(2, cp)) return true;
        error_ = "bad \\x escape";
        return false;
      case 'u':
        if (i_ < p_.size() && p_[i_] == '{') {
          ++i_;
          *cp = 0;
          while (i_ < p_.size() && p_[i_] != '}' && Hex(p_[i_]) >= 0 && *cp <= 0x10FFFF) *cp = *cp * 16 + Hex(p_[i_++]);
          if (i_ >= p_.size() || p_[i_] != '}' || *cp > 0x10FFFF) {
            error_ = "bad \\u escape";
            return false;
          }
          ++i_;
          return true;
        }
        if (!ReadHex(4, cp)) {
          error_ = "bad \\u escape";
          return false;
        }
        if (*cp >= 0xD800 && *cp <= 0xDBFF && i_ + 6 <= p_.size() && p_[i_] == '\\' && p_[i_ + 1] == 'u') {
          size_t save = i_;
          i_ += 2;
          uint32_t low;
          if (ReadHex(4, &low) && low >= 0xDC00 && low <= 0xDFFF) {
            *cp = 0x10000 + ((*cp - 0xD800) << 10) + (low - 0xDC00);
          } else {
            i_ = save;
          }
        }
        return true;
      case 'c':
        if (i_ < p_.size() && ((p_[i_] >= 'a' && p_[i_] <= 'z') || (p_[i_] >= 'A' && p_[i_] <= 'Z'))) {
          *cp = p_[i_++] % 32;
          return true;
        }
        error_ = "bad \\c escape";
        return false;
      case 'p':
      case 'P':
        error_ = "unicode property escapes are not supported together with look-around";
        return false;
      default: break;
    }
    *cp = c;
    return true;
  }

  int Class() {
    RNode n;
    n.kind = RK::kSet;
    if (i_ < p_.size() && p_[i_] == '^') {
      n.negate = true;
      ++i_;
    }
    ClassItem singles;
    while (true) {
      if (i_ >= p_.size()) {
        error_ = "unterminated character class";
        break;
      }
      if (p_[i_] == ']') {
        ++i_;
        break;
      }
      uint32_t lo = 0;
      ClassItem item;
      bool is_item = false;
      if (p_[i_] == '\\') {
        ++i_;
        if (!Escape(true, &item, &lo, &is_item)) break;
      } else {
        lo = p_[i_++];
      }
      if (is_item) {
        n.items.push_back(std::move(item));
        continue;
      }
      uint32_t hi = lo;
      if (i_ + 1 < p_.size() && p_[i_] == '-' && p_[i_ + 1] != ']') {
        ++i_;
        bool hi_item = false;
        ClassItem other;
        if (p_[i_] == '\\') {
          ++i_;
          if (!Escape(true, &other, &hi, &hi_item)) break;
        } else {
          hi = p_[i_++];
        }
        if (hi_item) {
          singles.ranges.emplace_back(lo, lo);
          singles.ranges.emplace_back('-', '-');
          n.items.push_back(std::move(other));
          continue;
        }
        if (hi < lo) {
          error_ = "range out of order in character class";
          break;
        }
      }
      singles.ranges.emplace_back(lo, hi);
    }
    n.items.push_back(std::move(singles));
    return Add(std::move(n));
  }

  int Atom(int nesting) {
    char32_t c = p_[i_++];
    RNode n;
    switch (c) {
      case '^': n.kind = RK::kBol; return Add(n);
      case '$': n.kind = RK::kEol; return Add(n);
      case '.': n.kind = RK::kAny; return Add(n);
      case '[': return Class();
      case '(': {
        RNode g;
        if (p_.substr(i_).starts_with(U"?:")) {
          i_ += 2;
          g.kind = RK::kGroup;
        } else if (p_.substr(i_).starts_with(U"?=") || p_.substr(i_).starts_with(U"?!")) {
          g.kind = RK::kLook;
          g.negate = p_[i_ + 1] == '!';
          i_ += 2;
        } else if (p_.substr(i_).starts_with(U"?<=") || p_.substr(i_).starts_with(U"?<!")) {
          g.kind = RK::kLook;
          g.ahead = false;
          g.negate = p_[i_ + 2] == '!';
          i_ += 3;
        } else if (p_.substr(i_).starts_with(U"?<")) {
          size_t close = p_.find('>', i_);
          if (close == std::u32string_view::npos) {
            error_ = "bad group name";
            return Add(n);
          }
          group_names_.emplace_back(p_.substr(i_ + 2, close - i_ - 2), prog_->groups);
          i_ = close + 1;
          g.kind = RK::kGroup;
          g.group = prog_->groups++;
        } else if (i_ < p_.size() && p_[i_] == '?') {
          error_ = "invalid group";
          return Add(n);
        } else {
          g.kind = RK::kGroup;
          g.group = prog_->groups++;
        }
        g.child = Alternation(nesting + 1);
        if (i_ >= p_.size() || p_[i_] != ')') {
          if (error_.empty()) error_ = "unbalanced parenthesis";
          return Add(n);
        }
        ++i_;
        return Add(std::move(g));
      }
      case ')':
      case '*':
      case '+':
      case '?':
        error_ = "nothing to repeat";
        return Add(n);
      case '\\': {
        if (i_ < p_.size() && (p_[i_] == 'b' || p_[i_] == 'B')) {
          n.kind = p_[i_++] == 'b' ? RK::kWordBoundary : RK::kNotWordBoundary;
          return Add(n);
        }
        if (i_ < p_.size() && p_[i_] >= '1' && p_[i_] <= '9') {
          int v;
          ReadInt(&v);
          n.kind = RK::kBackref;
          n.group = v - 1;
          return Add(n);
        }
        if (i_ < p_.size() && p_[i_] == 'k' && i_ + 1 < p_.size() && p_[i_ + 1] == '<') {
          size_t close = p_.find('>', i_);
          if (close == std::u32string_view::npos) {
            error_ = "bad \\k escape";
            return Add(n);
          }
          std::u32string name(p_.substr(i_ + 2, close - i_ - 2));
          i_ = close + 1;
          n.kind = RK::kBackref;
          for (const auto& [gname, index] : group_names_) {
            if (gname == name) n.group = index;
          }
          if (n.group < 0) error_ = "unknown group name";
          return Add(n);
        }
        ClassItem item;
        uint32_t cp = 0;
        bool is_item = false;
        if (!Escape(false, &item, &cp, &is_item)) return Add(n);
        n.kind = RK::kSet;
        if (!is_item) item.ranges = {{cp, cp}};
        n.items.push_back(std::move(item));
        return Add(std::move(n));
      }
      default:
        n.kind = RK::kSet;
        n.items.push_back(ClassItem{{{static_cast<uint32_t>(c), static_cast<uint32_t>(c)}}, false});
        return Add(std::move(n));
    }
  }

  std::u32string_view p_;
  EcmaRegex::Backtracker* prog_;
  size_t i_ = 0;
  std::string error_;
  std::vector<std::pair<std::u32string, int>> group_names_;
};

struct Cont {
  enum Type { kAccept, kSeqNext, kRepeatNext, kGroupClose, kLookBehindEnd } type;
  int node = -1;
  int index = 0;   // kSeqNext: next kid; kRepeatNext: iterations done
  size_t pos = 0;  // kRepeatNext: where the iteration started; kLookBehindEnd: required end
  const Cont* next = nullptr;
};

class Matcher {
 public:
  Matcher(const EcmaRegex::Backtracker& prog, const std::vector<uint32_t>& s, uint64_t max_steps)
      : prog_(prog), s_(s), max_steps_(max_steps), caps_(2 * prog.groups, SIZE_MAX) {}

  bool Search(bool* limit) {
    Cont accept{Cont::kAccept};
    for (size_t start = 0; start <= s_.size(); ++start) {
      if (Match(prog_.root, start, &accept)) return true;
      if (limit_) break;
      if (prog_.anchored) break;
    }
    *limit = limit_;
    return false;
  }

 private:
  bool Charge() {
    if (++steps_ > max_steps_ || depth_ > kMaxRecursion) limit_ = true;
    return !limit_;
  }

  bool SetMatches(const RNode& n, uint32_t c) const {
    bool any = false;
    for (const ClassItem& item : n.items) {
      if (InRanges(item.ranges, c) != item.negate) {
        any = true;
        break;
      }
    }
    return any != n.negate;
  }

  bool SingleChar(const RNode& n, size_t i) const {
    if (i >= s_.size()) return false;
    if (n.kind == RK::kAny) return !IsLineTerminator(s_[i]);
    return SetMatches(n, s_[i]);
  }

  struct Depth {
    explicit Depth(int* d) : d_(d) { ++*d_; }
    ~Depth() { --*d_; }
    int* d_;
  };

  bool Match(int id, size_t i, const Cont* k) {
    if (!Charge()) return false;
    Depth depth(&depth_);
    const RNode& n = prog_.nodes[id];
    switch (n.kind) {
      case RK::kEmpty: return Next(k, i);
      case RK::kSet:
      case RK::kAny: return SingleChar(n, i) && Next(k, i + 1);
      case RK::kBol: return i == 0 && Next(k, i);
      case RK::kEol: return i == s_.size() && Next(k, i);
      case RK::kWordBoundary:
      case RK::kNotWordBoundary: {
        bool a = i > 0 && IsWordChar(s_[i - 1]);
        bool b = i < s_.size() && IsWordChar(s_[i]);
        return ((a != b) == (n.kind == RK::kWordBoundary)) && Next(k, i);
      }
      case RK::kSeq: {
        if (n.kids.empty()) return Next(k, i);
        Cont c{Cont::kSeqNext, id, 1, 0, k};
        return Match(n.kids[0], i, &c);
      }
      case RK::kAlt:
        for (int kid : n.kids) {
          if (Match(kid, i, k)) return true;
          if (limit_) return false;
        }
        return false;
      case RK::kGroup: {
        if (n.group < 0) return Match(n.child, i, k);
        size_t old_start = caps_[2 * n.group];
        caps_[2 * n.group] = i;
        Cont c{Cont::kGroupClose, id, 0, 0, k};
        if (Match(n.child, i, &c)) return true;
        caps_[2 * n.group] = old_start;
        return false;
      }
      case RK::kRepeat: return Repeat(id, 0, i, k);
      case RK::kLook: {
        Cont accept{Cont::kAccept};
        bool found = false;
        if (n.ahead) {
          found = Match(n.child, i, &accept);
        } else {
          Cont end{Cont::kLookBehindEnd, id, 0, i, &accept};
          for (size_t j = i + 1; j-- > 0 && !found && !limit_;) found = Match(n.child, j, &end);
        }
        if (limit_) return false;
        return found != n.negate && Next(k, i);
      }
      case RK::kBackref: {
        size_t a = caps_[2 * n.group], b = caps_[2 * n.group + 1];
        if (a == SIZE_MAX || b == SIZE_MAX || b < a) return Next(k, i);
        size_t len = b - a;
        if (i + len > s_.size()) return false;
        for (size_t x = 0; x < len; ++x) {
          if (s_[a + x] != s_[i + x]) return false;
        }
        return Next(k, i + len);
      }
    }
    return false;
  }

  bool Repeat(int id, int count, size_t i, const Cont* k) {
    const RNode& n = prog_.nodes[id];
    const RNode& child = prog_.nodes[n.child];
    if (child.kind == RK::kSet || child.kind == RK::kAny) {
      // Single characters: count the run, then try continuation lengths without recursion.
      size_t run = 0;
      size_t limit = n.max == kUnbounded ? SIZE_MAX : static_cast<size_t>(n.max - count);
      while (run < limit && SingleChar(child, i + run)) ++run;
      size_t need = n.min > count ? static_cast<size_t>(n.min - count) : 0;
      if (run < need) return false;
      if (n.greedy) {
        for (size_t j = run + 1; j-- > need;) {
          if (Next(k, i + j)) return true;
          if (limit_ || !Charge()) return false;
        }
      } else {
        for (size_t j = need; j <= run; ++j) {
          if (Next(k, i + j)) return true;
          if (limit_ || !Charge()) return false;
        }
      }
      return false;
    }
    Cont c{Cont::kRepeatNext, id, count + 1, i, k};
    if (count < n.min) return Match(n.child, i, &c);
    bool can_more = n.max == kUnbounded || count < n.max;
    if (n.greedy) {
      if (can_more && Match(n.child, i, &c)) return true;
      if (limit_) return false;
      return Next(k, i);
    }
    if (Next(k, i)) return true;
    if (limit_) return false;
    return can_more && Match(n.child, i, &c);
  }

  bool Next(const Cont* k, size_t i) {
    if (!Charge()) return false;
    Depth depth(&depth_);
    switch (k->type) {
      case Cont::kAccept: return true;
      case Cont::kLookBehindEnd: return i == k->pos && Next(k->next, i);
      case Cont::kSeqNext: {
        const RNode& n = prog_.nodes[k->node];
        if (static_cast<size_t>(k->index) >= n.kids.size()) return Next(k->next, i);
        Cont c{Cont::kSeqNext, k->node, k->index + 1, 0, k->next};
        return Match(n.kids[k->index], i, &c);
      }
      case Cont::kRepeatNext: {
        const RNode& n = prog_.nodes[k->node];
        if (i == k->pos && k->index > n.min) return false;  // an empty iteration ends the loop
        return Repeat(k->node, k->index, i, k->next);
      }
      case Cont::kGroupClose: {
        const RNode& n = prog_.nodes[k->node];
        size_t old_end = caps_[2 * n.group + 1];
        caps_[2 * n.group + 1] = i;
        if (Next(k->next, i)) return true;
        caps_[2 * n.group + 1] = old_end;
        return false;
      }
    }
    return false;
  }

  const EcmaRegex::Backtracker& prog_;
  const std::vector<uint32_t>& s_;
  uint64_t max_steps_;
  uint64_t steps_ = 0;
  int depth_ = 0;
  bool limit_ = false;
  std::vector<size_t> caps_;
};

}  // namespace

Result<EcmaRegex::BacktrackerPtr> CompileBacktracker(std::string_view pattern) {
  EcmaRegex::BacktrackerPtr prog(new EcmaRegex::Backtracker());
  std::vector<uint32_t> cps = DecodeUtf8(pattern);
  std::u32string text(cps.begin(), cps.end());
  Parser parser(text, prog.get());
  STRUCTURE_RETURN_IF_ERROR(parser.Run());
  const RNode& root = prog->nodes[prog->root];
  if (root.kind == RK::kSeq && !root.kids.empty() && prog->nodes[root.kids[0]].kind == RK::kBol) {
    prog->anchored = true;
  }
  for (const RNode& n : prog->nodes) {
    if (n.kind == RK::kBackref && n.group >= prog->groups) {
      return InvalidArgument("back reference to a group that does not exist");
    }
  }
  return prog;
}

bool BacktrackSearch(const EcmaRegex::Backtracker& program, std::string_view subject, uint64_t max_steps,
                     bool* step_limit_hit) {
  std::vector<uint32_t> s = DecodeUtf8(subject);
  Matcher matcher(program, s, max_steps);
  bool limit = false;
  bool found = matcher.Search(&limit);
  if (step_limit_hit != nullptr) *step_limit_hit = limit;
  return found;
}

}  // namespace structure::pipeline
