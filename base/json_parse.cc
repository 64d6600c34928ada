// Parsing JSON text into Json: a recursive-descent parser with line:col errors and a depth bound.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <memory>

#include "base/json.h"
#include "base/json_reader.h"

namespace structure {

// The parser's access to Json: appends members without copying their keys.
struct JsonBuilder {
  // Duplicate keys: the last value wins, at the first one's position, as in most parsers.
  static void Set(Json& object, std::string key, Json value) {
    object.Slot(key, &key) = std::move(value);
  }
  // Turns a null value into an empty string or object in place and returns what to fill.
  static std::string& EmptyString(Json& null) {
    null.type_ = Json::Type::kString;
    return null.s_;
  }
  static void EmptyObject(Json& null) {
    null.type_ = Json::Type::kObject;
    null.o_ = std::make_unique<Json::ObjectData>();
  }
};

namespace {

class Parser {
 public:
  Parser(std::string_view text, const ParseOptions& options) : text_(text), options_(options) {}

  Result<Json> Run() {
    SkipSpace();
    Json value;
    if (!ParseValue(value, 0)) return error_;
    SkipSpace();
    if (pos_ != text_.size()) {
      Fail("unexpected text after the JSON value");
      return error_;
    }
    return value;
  }

 private:
  void Fail(const std::string& what) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    error_ = InvalidArgument(options_.source + ":" + std::to_string(line) + ":" +
                             std::to_string(col) + ": " + what);
  }

  // A byte as an error message may show it: printable ASCII quoted, anything else in hex (an
  // error never echoes a byte that is not valid text).
  static std::string Shown(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F) return std::string("character '") + c + "'";
    static const char kHex[] = "0123456789abcdef";
    return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 0xF];
  }

  void SkipSpace() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
      ++pos_;
    }
  }

  bool Literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  // Parses the value at pos_ into out, which is null on entry.
  bool ParseValue(Json& out, size_t depth) {
    if (depth > options_.max_depth) {
      Fail("nesting deeper than " + std::to_string(options_.max_depth) + " levels");
      return false;
    }
    if (pos_ >= text_.size()) {
      Fail("unexpected end of input, expected a value");
      return false;
    }
    char c = text_[pos_];
    switch (c) {
      case '{':
        return ParseObject(out, depth);
      case '[':
        return ParseArray(out, depth);
      case '"':
        return ParseString(JsonBuilder::EmptyString(out));
      case 't':
        if (Literal("true")) {
          out = Json(true);
          return true;
        }
        break;
      case 'f':
        if (Literal("false")) {
          out = Json(false);
          return true;
        }
        break;
      case 'n':
        if (Literal("null")) {
          out = Json();
          return true;
        }
        break;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(out);
    }
    Fail("unexpected " + Shown(c) + ", expected a value");
    return false;
  }

  bool ParseObject(Json& out, size_t depth) {
    ++pos_;  // '{'
    JsonBuilder::EmptyObject(out);
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') {
        Fail("expected a string key");
        return false;
      }
      std::string key;
      if (!ParseString(key)) return false;
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ':') {
        Fail("expected ':' after an object key");
        return false;
      }
      ++pos_;
      SkipSpace();
      Json value;
      if (!ParseValue(value, depth + 1)) return false;
      JsonBuilder::Set(out, std::move(key), std::move(value));
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return true;
      }
      Fail("expected ',' or '}' in an object");
      return false;
    }
  }

  bool ParseArray(Json& out, size_t depth) {
    ++pos_;  // '['
    Json::Array items;
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      out = Json(std::move(items));
      return true;
    }
    while (true) {
      SkipSpace();
      Json value;
      if (!ParseValue(value, depth + 1)) return false;
      items.push_back(std::move(value));
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        out = Json(std::move(items));
        return true;
      }
      Fail("expected ',' or ']' in an array");
      return false;
    }
  }

  bool ParseString(std::string& out) {
    switch (ReadJsonString(text_, &pos_, out)) {
      case JsonStringError::kNone:
        return true;
      case JsonStringError::kBadUtf8:
        Fail("invalid UTF-8 at byte " + std::to_string(pos_));
        break;
      case JsonStringError::kUnterminated:
        Fail("unterminated string");
        break;
      case JsonStringError::kControl:
        Fail("control character (" + Shown(text_[pos_]) + ") in a string: write it as an escape");
        break;
      case JsonStringError::kUnterminatedEscape:
        Fail("unterminated escape");
        break;
      case JsonStringError::kBadEscape: {
        char e = text_[pos_];
        Fail(e >= 0x20 && e < 0x7F ? std::string("invalid escape '\\") + e + "'"
                                   : "invalid escape: '\\' before " + Shown(e));
        break;
      }
      case JsonStringError::kTruncatedHex:
        Fail("truncated \\u escape");
        break;
      case JsonStringError::kBadHex:
        Fail("invalid hex digit in \\u escape");
        break;
    }
    return false;
  }

  bool ParseNumber(Json& out) {
    size_t start = pos_;
    bool is_double = false;
    if (text_[pos_] == '-') ++pos_;
    if (pos_ >= text_.size() || !(text_[pos_] >= '0' && text_[pos_] <= '9')) {
      Fail("invalid number");
      return false;
    }
    if (text_[pos_] == '0') {
      ++pos_;
    } else {
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      is_double = true;
      ++pos_;
      size_t digits = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      if (pos_ == digits) {
        Fail("expected digits after '.'");
        return false;
      }
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      is_double = true;
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      size_t digits = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      if (pos_ == digits) {
        Fail("expected digits in exponent");
        return false;
      }
    }
    std::string_view num = text_.substr(start, pos_ - start);
    if (!is_double) {
      int64_t v = 0;
      auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
      if (ec == std::errc() && p == num.data() + num.size()) {
        out = Json(v);
        return true;
      }
    }
    if (!is_double) {
      out = Json::MakeBigInteger(num);  // beyond int64: kept exactly
      return true;
    }
    std::string copy(num);
    double d = std::strtod(copy.c_str(), nullptr);
    if (!std::isfinite(d)) {  // would be written back as null
      pos_ = start;
      Fail("number out of range (beyond +-1.8e308)");
      return false;
    }
    out = Json(d);
    return true;
  }

  std::string_view text_;
  const ParseOptions& options_;
  size_t pos_ = 0;
  Status error_;
};

}  // namespace

Result<Json> ParseJson(std::string_view text, const ParseOptions& options) {
  return Parser(text, options).Run();
}

}  // namespace structure
