// A forward reader over JSON text, for hot paths that want a few members of a known shape
// without building a Json tree (a provider's reply). It accepts only what ParseJson accepts
// (nesting one level less deep) and decodes strings exactly as ParseJson does (ReadJsonString,
// shared by both); on any error it just says false, and the caller parses the text with ParseJson
// for the message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace structure {

// Why a JSON string literal could not be read (ReadJsonString).
enum class JsonStringError {
  kNone,
  kBadUtf8,             // a byte that is not well-formed UTF-8
  kUnterminated,        // the text ends inside the string
  kControl,             // a control character not written as an escape
  kUnterminatedEscape,  // the text ends right after a '\'
  kBadEscape,           // '\' before a character that is not an escape
  kTruncatedHex,        // the text ends inside a \u escape
  kBadHex,              // a \u escape with a character that is not a hex digit
};

// Reads the string literal whose opening quote is at text[*pos], appending its decoded text to
// `out` (a lone surrogate escape reads as U+FFFD). On success *pos is just past the closing
// quote; on an error *pos is where the error is (the offending byte, or text.size()).
JsonStringError ReadJsonString(std::string_view text, size_t* pos, std::string& out);

class JsonReader {
 public:
  explicit JsonReader(std::string_view text, size_t max_depth = 512)
      : text_(text), max_depth_(max_depth) {}

  // The first byte of the next token (white space skipped), or 0 at the end of the text.
  char Peek();

  // Reads an object: for each member, member(key) is called with the reader at the member's
  // value, which it must read or Skip; it returns false to give up. `key` is valid only until
  // the value is read. False when the text is not an object or anything fails.
  template <typename Member>
  bool Object(Member&& member);
  // Reads an array: element() is called with the reader at each element (same rules).
  template <typename Element>
  bool Array(Element&& element);

  // A string value into `out` (replaced); false when the value is not a string.
  bool String(std::string& out);
  // An integer literal within int64 into `out`; false for anything else (a fraction, an
  // exponent, a bigger integer, not a number).
  bool Int(int64_t& out);
  // Any value, checked as ParseJson checks it.
  bool Skip();
  // True when only white space is left.
  bool AtEnd() { return Peek() == 0 && pos_ == text_.size(); }

 private:
  template <typename Item>
  bool Items(char open, char close, Item&& item);
  bool Key(std::string_view& key);
  bool SkipNumber();
  bool Literal(std::string_view word);

  std::string_view text_;
  size_t max_depth_;
  size_t depth_ = 0;  // the nesting level of the values being read (the root's is 0)
  size_t pos_ = 0;
  std::string key_;      // a key that needed decoding
  std::string scratch_;  // strings skipped
};

// The loop Object and Array share: `item` reads one member or element.
template <typename Item>
bool JsonReader::Items(char open, char close, Item&& item) {
  if (Peek() != open || ++depth_ > max_depth_) return false;
  ++pos_;
  if (Peek() == close) {
    ++pos_;
    --depth_;
    return true;
  }
  while (true) {
    if (!item()) return false;
    char c = Peek();
    ++pos_;
    if (c == ',') continue;
    if (c != close) return false;
    --depth_;
    return true;
  }
}

template <typename Member>
bool JsonReader::Object(Member&& member) {
  return Items('{', '}', [&] {
    std::string_view key;
    if (Peek() != '"' || !Key(key) || Peek() != ':') return false;
    ++pos_;
    return static_cast<bool>(member(key));
  });
}

template <typename Element>
bool JsonReader::Array(Element&& element) {
  return Items('[', ']', [&] { return static_cast<bool>(element()); });
}

}  // namespace structure
