// ECMA-262 -> RE2 pattern translation (see validator_regex_translate.h).
#include "pipeline/validator/regex_translate.h"

#include <cstdio>

#include "base/hex.h"
#include "base/utf8.h"
#include "pipeline/validator/regex_escape.h"

namespace structure::pipeline {
namespace {

// ECMA-262 WhiteSpace + LineTerminator, as ranges for a character class body.
constexpr const char* kEcmaSpaceBody =
    "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}"
    "\\x{205F}\\x{3000}\\x{FEFF}";
constexpr const char* kDigitBody = "0-9";
constexpr const char* kWordBody = "0-9A-Za-z_";

struct PropertyAlias {
  const char* ecma;
  const char* re2;
};
constexpr PropertyAlias kGeneralCategories[] = {
    {"Letter", "L"},
    {"Uppercase_Letter", "Lu"},
    {"Lowercase_Letter", "Ll"},
    {"Titlecase_Letter", "Lt"},
    {"Modifier_Letter", "Lm"},
    {"Other_Letter", "Lo"},
    {"Mark", "M"},
    {"Combining_Mark", "M"},
    {"Nonspacing_Mark", "Mn"},
    {"Spacing_Mark", "Mc"},
    {"Enclosing_Mark", "Me"},
    {"Number", "N"},
    {"Decimal_Number", "Nd"},
    {"digit", "Nd"},
    {"Letter_Number", "Nl"},
    {"Other_Number", "No"},
    {"Punctuation", "P"},
    {"punct", "P"},
    {"Connector_Punctuation", "Pc"},
    {"Dash_Punctuation", "Pd"},
    {"Open_Punctuation", "Ps"},
    {"Close_Punctuation", "Pe"},
    {"Initial_Punctuation", "Pi"},
    {"Final_Punctuation", "Pf"},
    {"Other_Punctuation", "Po"},
    {"Symbol", "S"},
    {"Math_Symbol", "Sm"},
    {"Currency_Symbol", "Sc"},
    {"Modifier_Symbol", "Sk"},
    {"Other_Symbol", "So"},
    {"Separator", "Z"},
    {"Space_Separator", "Zs"},
    {"Line_Separator", "Zl"},
    {"Paragraph_Separator", "Zp"},
    {"Other", "C"},
    {"Control", "Cc"},
    {"cntrl", "Cc"},
    {"Format", "Cf"},
    {"Surrogate", "Cs"},
    {"Private_Use", "Co"},
    {"Unassigned", "Cn"},
};

void AppendCodePointEscape(std::string& out, uint32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\x{%X}", cp);
  out += buf;
}

class Translator {
 public:
  Translator(std::string_view p, bool strict) : p_(p), strict_(strict) {}

  Result<std::string> Run(bool* needs_backtracking) {
    while (ok() && i_ < p_.size()) Term();
    if (ok() && depth_ != 0) Fail("unbalanced parenthesis");
    if (backtracking_) {
      *needs_backtracking = true;
      if (error_.empty()) return std::string();
    }
    if (!error_.empty()) return InvalidArgument(error_);
    return std::move(out_);
  }

 private:
  bool ok() const { return error_.empty() && !backtracking_; }
  void Fail(const std::string& what) {
    if (error_.empty()) error_ = what + " at offset " + std::to_string(i_);
  }

  // Reads one UTF-8 code point at i_ (invalid bytes read as themselves).
  uint32_t NextCodePoint() { return ReadUtf8(p_, &i_); }

  bool ReadHex(size_t digits, uint32_t* value) { return ReadHexDigits(p_, &i_, digits, value); }

  // After "\u": reads XXXX, {X...}, or a surrogate pair; returns false on bad syntax.
  bool ReadUnicodeEscape(uint32_t* cp) {
    if (i_ < p_.size() && p_[i_] == '{') {
      size_t close = p_.find('}', i_);
      if (close == std::string_view::npos || close == i_ + 1 || close - i_ > 7) return false;
      uint32_t v = 0;
      for (size_t k = i_ + 1; k < close; ++k) {
        int h = HexDigitValue(static_cast<unsigned char>(p_[k]));
        if (h < 0) return false;
        v = v * 16 + h;
      }
      if (v > 0x10FFFF) return false;
      i_ = close + 1;
      *cp = v;
      return true;
    }
    if (!ReadHex(4, cp)) return false;
    JoinSurrogatePair(p_, &i_, cp);
    return true;
  }

  // After "\p" or "\P": reads {Name} and returns the RE2 name, or "" on error.
  std::string ReadProperty() {
    if (i_ >= p_.size() || p_[i_] != '{') return "";
    size_t close = p_.find('}', i_);
    if (close == std::string_view::npos) return "";
    std::string_view name = p_.substr(i_ + 1, close - i_ - 1);
    i_ = close + 1;
    size_t eq = name.find('=');
    if (eq != std::string_view::npos) {
      std::string_view key = name.substr(0, eq);
      name = name.substr(eq + 1);
      if (key == "Script" || key == "sc" || key == "Script_Extensions" || key == "scx")
        return std::string(name);
      if (key != "General_Category" && key != "gc") return "";
    }
    for (const auto& alias : kGeneralCategories) {
      if (name == alias.ecma) return alias.re2;
    }
    return std::string(name);  // Any, short names (L, Lu, Nd) and script names pass through to RE2
  }

  // Escape outside a class. i_ is just after the backslash.
  void Escape() {
    if (i_ >= p_.size()) return Fail("trailing backslash");
    char c = p_[i_++];
    switch (c) {
      case 'd':
        out_ += "[0-9]";
        return;
      case 'D':
        out_ += "[^0-9]";
        return;
      case 'w':
        out_ += "[0-9A-Za-z_]";
        return;
      case 'W':
        out_ += "[^0-9A-Za-z_]";
        return;
      case 's':
        out_ += "[";
        out_ += kEcmaSpaceBody;
        out_ += "]";
        return;
      case 'S':
        out_ += "[^";
        out_ += kEcmaSpaceBody;
        out_ += "]";
        return;
      case 'b':
        out_ += "\\b";
        return;
      case 'B':
        out_ += "\\B";
        return;
      case 'k':
        backtracking_ = true;
        return;
      default:
        break;
    }
    if (c >= '1' && c <= '9') {
      backtracking_ = true;
      return;
    }
    uint32_t cp;
    if (!EscapedCodePoint(c, &cp)) return;
    if (cp == kPropertyMarker) return;
    AppendCodePointEscape(out_, cp);
  }

  static constexpr uint32_t kPropertyMarker = 0xFFFFFFFF;

  // Escapes that denote one code point (shared by class and non-class context). For \p it
  // appends the property itself and returns kPropertyMarker.
  bool EscapedCodePoint(char c, uint32_t* cp) {
    if (int control = ControlEscape(static_cast<unsigned char>(c)); control >= 0) {
      *cp = static_cast<uint32_t>(control);
      return true;
    }
    switch (c) {
      case '0':
        if (i_ < p_.size() && p_[i_] >= '0' && p_[i_] <= '9') {
          Fail("octal escape");
          return false;
        }
        *cp = 0;
        return true;
      case 'x':
        if (!ReadHex(2, cp)) {
          Fail("bad \\x escape");
          return false;
        }
        return true;
      case 'u':
        if (!ReadUnicodeEscape(cp)) {
          Fail("bad \\u escape");
          return false;
        }
        return true;
      case 'c':
        if (i_ < p_.size() &&
            ((p_[i_] >= 'a' && p_[i_] <= 'z') || (p_[i_] >= 'A' && p_[i_] <= 'Z'))) {
          *cp = static_cast<uint32_t>(p_[i_++]) % 32;
          return true;
        }
        Fail("bad \\c escape");
        return false;
      case 'p':
      case 'P': {
        std::string name = ReadProperty();
        if (name.empty()) {
          Fail("bad \\p escape");
          return false;
        }
        out_ += '\\';
        out_ += c;
        out_ += '{' + name + '}';
        *cp = kPropertyMarker;
        return true;
      }
      default:
        break;
    }
    unsigned char uc = static_cast<unsigned char>(c);
    if (uc >= 0x80) {
      --i_;
      *cp = NextCodePoint();
      if (strict_) Fail("invalid escape");
      return true;
    }
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum && strict_) {
      Fail(std::string("invalid escape \\") + c);
      return false;
    }
    *cp = uc;  // identity escape: \/ \. \- ...
    return true;
  }

  void Class() {
    // i_ is just after '['.
    bool negated = i_ < p_.size() && p_[i_] == '^';
    if (negated) ++i_;
    if (i_ < p_.size() && p_[i_] == ']') {
      ++i_;
      out_ += negated ? "[\\x{0}-\\x{10FFFF}]" : "[^\\x{0}-\\x{10FFFF}]";
      return;
    }
    std::string body;
    bool any_item = false;
    while (ok()) {
      if (i_ >= p_.size()) return Fail("unterminated character class");
      if (p_[i_] == ']') {
        ++i_;
        break;
      }
      uint32_t lo;
      bool lo_is_char = ClassAtom(body, &lo);
      if (!ok()) return;
      any_item = true;
      if (lo_is_char && i_ + 1 < p_.size() && p_[i_] == '-' && p_[i_ + 1] != ']') {
        ++i_;
        std::string dummy;
        uint32_t hi;
        bool hi_is_char = ClassAtom(dummy, &hi);
        if (!ok()) return;
        if (!hi_is_char) {
          if (strict_) return Fail("class escape in range");
          AppendCodePointEscape(body, lo);
          body += "\\-";
          body += dummy;
          continue;
        }
        if (hi < lo) return Fail("range out of order in character class");
        AppendCodePointEscape(body, lo);
        body += '-';
        AppendCodePointEscape(body, hi);
      } else if (lo_is_char) {
        AppendCodePointEscape(body, lo);
      }
    }
    if (!any_item) return;
    out_ += negated ? "[^" : "[";
    out_ += body;
    out_ += ']';
  }

  // One class atom. Returns true with *cp for a single character; appends sets to body.
  bool ClassAtom(std::string& body, uint32_t* cp) {
    if (p_[i_] != '\\') {
      *cp = NextCodePoint();
      return true;
    }
    ++i_;
    if (i_ >= p_.size()) {
      Fail("trailing backslash");
      return false;
    }
    char c = p_[i_++];
    switch (c) {
      case 'd':
        body += kDigitBody;
        return false;
      case 'D':
        body += "\\D";
        return false;
      case 'w':
        body += kWordBody;
        return false;
      case 'W':
        body += "\\W";
        return false;
      case 's':
        body += kEcmaSpaceBody;
        return false;
      case 'S':
        body += "\\S";
        return false;  // RE2's \S: ASCII white space only (documented)
      case 'b':
        *cp = 0x08;
        return true;
      case '-':
        *cp = '-';
        return true;
      default:
        break;
    }
    std::string saved;
    saved.swap(out_);
    bool single = EscapedCodePoint(c, cp);
    std::string emitted;
    emitted.swap(out_);
    out_.swap(saved);
    if (!single) return false;
    if (*cp == kPropertyMarker) {
      body += emitted;
      return false;
    }
    return true;
  }

  // Parses a `{n}`, `{n,}` or `{n,m}` quantifier at i_ (on '{'); copies it when valid.
  bool Quantifier() {
    size_t j = i_ + 1;
    auto number = [&](uint64_t* v) {
      size_t start = j;
      *v = 0;
      while (j < p_.size() && p_[j] >= '0' && p_[j] <= '9') {
        if (*v < 1000000) *v = *v * 10 + (p_[j] - '0');
        ++j;
      }
      return j > start;
    };
    uint64_t lo = 0, hi = 0;
    if (!number(&lo)) return false;
    bool has_hi = false;
    if (j < p_.size() && p_[j] == ',') {
      ++j;
      has_hi = number(&hi);
    }
    if (j >= p_.size() || p_[j] != '}') return false;
    if (has_hi && hi < lo) {
      Fail("numbers out of order in {} quantifier");
      return true;
    }
    if (lo > 1000 || (has_hi && hi > 1000)) backtracking_ = true;
    out_.append(p_.substr(i_, j + 1 - i_));
    i_ = j + 1;
    return true;
  }

  void Term() {
    char c = p_[i_];
    switch (c) {
      case '\\':
        ++i_;
        Escape();
        return;
      case '[':
        ++i_;
        Class();
        return;
      case '.':
        ++i_;
        out_ += "[^\\n\\r\\x{2028}\\x{2029}]";
        return;
      case '(':
        ++i_;
        if (i_ < p_.size() && p_[i_] == '?') {
          std::string_view rest = p_.substr(i_);
          if (rest.starts_with("?:")) {
            out_ += "(?:";
            i_ += 2;
          } else if (rest.starts_with("?=") || rest.starts_with("?!") || rest.starts_with("?<=") ||
                     rest.starts_with("?<!")) {
            backtracking_ = true;
            return;
          } else if (rest.starts_with("?<")) {
            out_ += "(?P<";
            i_ += 2;
          } else {
            return Fail("invalid group");
          }
        } else {
          out_ += '(';
        }
        ++depth_;
        return;
      case ')':
        if (depth_ == 0) return Fail("unmatched )");
        --depth_;
        ++i_;
        out_ += ')';
        return;
      case '{':
        if (Quantifier()) return;
        if (strict_) return Fail("lone {");
        ++i_;
        out_ += "\\{";
        return;
      case '}':
        if (strict_) return Fail("lone }");
        ++i_;
        out_ += "\\}";
        return;
      case ']':
        if (strict_) return Fail("lone ]");
        ++i_;
        out_ += "\\]";
        return;
      default: {
        size_t start = i_;
        NextCodePoint();
        out_.append(p_.substr(start, i_ - start));
        return;
      }
    }
  }

  std::string_view p_;
  bool strict_;
  size_t i_ = 0;
  int depth_ = 0;
  bool backtracking_ = false;
  std::string error_;
  std::string out_;
};

}  // namespace

Result<std::string> TranslateEcmaRegex(std::string_view pattern, bool strict,
                                       bool* needs_backtracking) {
  *needs_backtracking = false;
  return Translator(pattern, strict).Run(needs_backtracking);
}

}  // namespace structure::pipeline
