// Tokens of normalised text (normalize.h) for the value checks: runs of ASCII digits, runs of
// letters, single ideographs and single other characters; white space separates tokens and is
// not one.
#pragma once

#include <string_view>
#include <vector>

namespace structure::pipeline::evidence {

struct Token {
  enum class Kind { kNumber, kWord, kPunct };
  Kind kind = Kind::kPunct;
  std::string_view text;      // a view into the tokenised text
  bool space_before = false;  // white space separates it from the previous token
  bool is(char c) const { return kind == Kind::kPunct && text.size() == 1 && text[0] == c; }
  bool is_word(std::string_view w) const { return kind == Kind::kWord && text == w; }
  bool is_number() const { return kind == Kind::kNumber; }
};

// The tokens of `text`, which must outlive them. Letters are what ICU calls alphabetic plus
// combining marks; digits are ASCII (Normalize has folded every decimal digit to ASCII).
std::vector<Token> Tokenize(std::string_view text);

// The value of a digit token ("0042" -> 42); -1 when it has more than 9 digits.
long long DigitsValue(std::string_view digits);

}  // namespace structure::pipeline::evidence
