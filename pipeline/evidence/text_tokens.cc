#include "pipeline/evidence/text_tokens.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

namespace structure::pipeline::evidence {
namespace {

enum class Class { kSpace, kDigit, kLetter, kOther };

Class ClassOf(UChar32 c) {
  if (c < 0x80) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
      return Class::kSpace;
    if (c >= '0' && c <= '9') return Class::kDigit;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return Class::kLetter;
    return Class::kOther;
  }
  if (u_isUWhiteSpace(c)) return Class::kSpace;
  if (u_isUAlphabetic(c)) return Class::kLetter;
  int8_t t = u_charType(c);
  if (t == U_NON_SPACING_MARK || t == U_COMBINING_SPACING_MARK || t == U_ENCLOSING_MARK) {
    return Class::kLetter;
  }
  return Class::kOther;
}

}  // namespace

std::vector<Token> Tokenize(std::string_view text) {
  std::vector<Token> out;
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  int32_t n = static_cast<int32_t>(text.size());
  int32_t i = 0;
  bool space = false;
  while (i < n) {
    int32_t begin = i;
    UChar32 c;
    U8_NEXT(s, i, n, c);
    Class k = c < 0 ? Class::kOther : ClassOf(c);
    if (k == Class::kSpace) {
      space = true;
      continue;
    }
    // An ideograph is a word of its own: CJK text has no spaces between words.
    bool ideograph =
        k == Class::kLetter && c >= 0x2E80 && u_hasBinaryProperty(c, UCHAR_IDEOGRAPHIC);
    if ((k == Class::kDigit || k == Class::kLetter) && !ideograph) {
      while (i < n) {
        int32_t at = i;
        UChar32 d;
        U8_NEXT(s, at, n, d);
        if (d < 0 || ClassOf(d) != k) break;
        if (d >= 0x2E80 && u_hasBinaryProperty(d, UCHAR_IDEOGRAPHIC)) break;
        i = at;
      }
    }
    Token t;
    t.kind = k == Class::kDigit    ? Token::Kind::kNumber
             : k == Class::kLetter ? Token::Kind::kWord
                                   : Token::Kind::kPunct;
    t.text = text.substr(static_cast<size_t>(begin), static_cast<size_t>(i - begin));
    t.space_before = space && !out.empty();
    space = false;
    out.push_back(t);
  }
  return out;
}

long long DigitsValue(std::string_view digits) {
  size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) return digits.empty() ? -1 : 0;
  if (digits.size() - first > 9) return -1;
  long long v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  return v;
}

}  // namespace structure::pipeline::evidence
