// Parser of the backtracking regex engine: recursive descent over code points, nesting bounded
// by kMaxGroupNesting.
#include "pipeline/validator/backtrack_parse.h"

#include <string>
#include <vector>

#include "base/hex.h"
#include "base/utf8.h"
#include "pipeline/validator/backtrack_program.h"
#include "pipeline/validator/regex_escape.h"

namespace structure::pipeline {

void EcmaRegex::BacktrackerDeleter::operator()(Backtracker* b) const { delete b; }

namespace {

using namespace backtrack;

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
    if (kind == RK::kBol || kind == RK::kEol || kind == RK::kWordBoundary ||
        kind == RK::kNotWordBoundary) {
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

  bool ReadHex(size_t n, uint32_t* v) { return ReadHexDigits(p_, &i_, n, v); }

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
    if (int control = ControlEscape(c); control >= 0) {
      *cp = static_cast<uint32_t>(control);
      return true;
    }
    switch (c) {
      case 'd':
        return set(kDigit, false);
      case 'D':
        return set(kDigit, true);
      case 'w':
        return set(kWord, false);
      case 'W':
        return set(kWord, true);
      case 's':
        return set(kSpace, false);
      case 'S':
        return set(kSpace, true);
      case '0':
        *cp = 0;
        return true;
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
          while (i_ < p_.size() && p_[i_] != '}' && HexDigitValue(p_[i_]) >= 0 && *cp <= 0x10FFFF)
            *cp = *cp * 16 + HexDigitValue(p_[i_++]);
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
        JoinSurrogatePair(p_, &i_, cp);
        return true;
      case 'c':
        if (i_ < p_.size() &&
            ((p_[i_] >= 'a' && p_[i_] <= 'z') || (p_[i_] >= 'A' && p_[i_] <= 'Z'))) {
          *cp = p_[i_++] % 32;
          return true;
        }
        error_ = "bad \\c escape";
        return false;
      case 'p':
      case 'P':
        error_ = "unicode property escapes are not supported together with look-around";
        return false;
      default:
        break;
    }
    *cp = c;
    return true;
  }

  // One atom of a character class at i_: an escape (which may stand for a class item such as
  // \d) or a literal code point. False when the escape is malformed.
  bool ClassAtom(ClassItem* item, uint32_t* cp, bool* is_item) {
    if (p_[i_] != '\\') {
      *cp = p_[i_++];
      return true;
    }
    ++i_;
    return Escape(true, item, cp, is_item);
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
      if (!ClassAtom(&item, &lo, &is_item)) break;
      if (is_item) {
        n.items.push_back(std::move(item));
        continue;
      }
      uint32_t hi = lo;
      if (i_ + 1 < p_.size() && p_[i_] == '-' && p_[i_ + 1] != ']') {
        ++i_;
        bool hi_item = false;
        ClassItem other;
        if (!ClassAtom(&other, &hi, &hi_item)) break;
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

  // A group after its '(': capturing, named, non-capturing or a lookaround.
  int Group(int nesting) {
    RNode n;
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

  // An atom after its '\\': a word boundary, a back-reference or an escaped character or set.
  int EscapeAtom() {
    RNode n;
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

  int Atom(int nesting) {
    char32_t c = p_[i_++];
    RNode n;
    switch (c) {
      case '^':
        n.kind = RK::kBol;
        return Add(n);
      case '$':
        n.kind = RK::kEol;
        return Add(n);
      case '.':
        n.kind = RK::kAny;
        return Add(n);
      case '[':
        return Class();
      case '(':
        return Group(nesting);
      case ')':
      case '*':
      case '+':
      case '?':
        error_ = "nothing to repeat";
        return Add(n);
      case '\\':
        return EscapeAtom();
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

}  // namespace structure::pipeline
