#include "base/json_reader.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "base/hex.h"
#include "base/json_scan.h"
#include "base/utf8.h"

namespace structure {
namespace {

bool Hex4(std::string_view text, size_t pos, uint32_t& out) {
  out = 0;
  for (size_t i = 0; i < 4; ++i) {
    int h = HexDigitValue(text[pos + i]);
    if (h < 0) return false;
    out = out * 16 + static_cast<uint32_t>(h);
  }
  return true;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

JsonStringError ReadJsonString(std::string_view text, size_t* pos, std::string& out) {
  size_t& p = *pos;
  ++p;  // opening quote
  while (true) {
    size_t start = p;
    bool non_ascii;
    p = PlainRunEnd(text, p, &non_ascii);
    if (size_t bad = non_ascii ? Utf8ErrorAt(text, start, p) : std::string_view::npos;
        bad != std::string_view::npos) {
      p = bad;
      return JsonStringError::kBadUtf8;
    }
    out.append(text.data() + start, p - start);
    if (p >= text.size()) return JsonStringError::kUnterminated;
    char c = text[p];
    if (c == '"') {
      ++p;
      return JsonStringError::kNone;
    }
    if (c != '\\') return JsonStringError::kControl;
    if (++p >= text.size()) return JsonStringError::kUnterminatedEscape;
    char e = text[p++];
    switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t cp;
        if (p + 4 > text.size()) return JsonStringError::kTruncatedHex;
        if (!Hex4(text, p, cp)) return JsonStringError::kBadHex;
        p += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF && p + 6 <= text.size() && text[p] == '\\' &&
            text[p + 1] == 'u') {
          uint32_t lo;
          if (!Hex4(text, p + 2, lo)) {
            p += 2;
            return JsonStringError::kBadHex;
          }
          if (lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            p += 6;
          }  // else a lone high surrogate; the next escape is read on its own
        }
        // A lone surrogate has no UTF-8 form: it reads as U+FFFD, so the text stays valid.
        if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
        AppendUtf8(out, cp);
        break;
      }
      default:
        --p;
        return JsonStringError::kBadEscape;
    }
  }
}

char JsonReader::Peek() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return c;
    ++pos_;
  }
  return 0;
}

bool JsonReader::Key(std::string_view& key) {
  bool non_ascii;
  size_t end = PlainRunEnd(text_, pos_ + 1, &non_ascii);
  if (!non_ascii && end < text_.size() && text_[end] == '"') {
    key = text_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    return true;
  }
  key_.clear();
  if (ReadJsonString(text_, &pos_, key_) != JsonStringError::kNone) return false;
  key = key_;
  return true;
}

bool JsonReader::String(std::string& out) {
  if (Peek() != '"') return false;
  out.clear();
  return ReadJsonString(text_, &pos_, out) == JsonStringError::kNone;
}

bool JsonReader::Int(int64_t& out) {
  char c = Peek();
  if (c != '-' && !IsDigit(c)) return false;
  size_t start = pos_;
  if (!SkipNumber()) return false;
  std::string_view num = text_.substr(start, pos_ - start);
  auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), out);
  return ec == std::errc() && p == num.data() + num.size();
}

bool JsonReader::Literal(std::string_view word) {
  if (text_.substr(pos_, word.size()) != word) return false;
  pos_ += word.size();
  return true;
}

// The grammar ParseJson reads; a fraction or exponent that would read as infinity fails, as
// there.
bool JsonReader::SkipNumber() {
  size_t start = pos_;
  if (text_[pos_] == '-') ++pos_;
  if (pos_ >= text_.size() || !IsDigit(text_[pos_])) return false;
  if (text_[pos_] == '0') {
    ++pos_;
  } else {
    while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
  }
  bool is_double = false;
  if (pos_ < text_.size() && text_[pos_] == '.') {
    is_double = true;
    size_t digits = ++pos_;
    while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    if (pos_ == digits) return false;
  }
  if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    is_double = true;
    ++pos_;
    if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
    size_t digits = pos_;
    while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    if (pos_ == digits) return false;
  }
  if (!is_double) return true;
  std::string copy(text_.substr(start, pos_ - start));
  return std::isfinite(std::strtod(copy.c_str(), nullptr));
}

bool JsonReader::Skip() {
  switch (Peek()) {
    case '{':
      return Object([this](std::string_view) { return Skip(); });
    case '[':
      return Array([this] { return Skip(); });
    case '"':
      return String(scratch_);
    case 't':
      return Literal("true");
    case 'f':
      return Literal("false");
    case 'n':
      return Literal("null");
    case 0:
      return false;
    default:
      return SkipNumber();
  }
}

}  // namespace structure
