#include "base/json.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace structure {

Json::Json(uint64_t v) {
  if (v <= static_cast<uint64_t>(INT64_MAX)) {
    type_ = Type::kInt;
    i_ = static_cast<int64_t>(v);
  } else {
    type_ = Type::kDouble;
    d_ = static_cast<double>(v);
  }
}

Json::Json(Array a) : type_(Type::kArray), a_(std::make_unique<Array>(std::move(a))) {}
Json::Json(Object o) : type_(Type::kObject), o_(std::make_unique<Object>(std::move(o))) {}

Json::Json(const Json& other)
    : type_(other.type_), b_(other.b_), i_(other.i_), d_(other.d_), s_(other.s_) {
  if (other.a_) a_ = std::make_unique<Array>(*other.a_);
  if (other.o_) o_ = std::make_unique<Object>(*other.o_);
}

Json& Json::operator=(const Json& other) {
  if (this != &other) {
    Json copy(other);
    *this = std::move(copy);
  }
  return *this;
}

bool Json::is_integral() const {
  if (type_ == Type::kInt) return true;
  return type_ == Type::kDouble && std::isfinite(d_) && std::floor(d_) == d_;
}

bool Json::as_bool() const {
  assert(type_ == Type::kBool);
  return b_;
}
int64_t Json::as_int() const {
  assert(is_number());
  if (type_ == Type::kInt) return i_;
  if (!(d_ >= -9.2e18 && d_ <= 9.2e18)) return d_ < 0 ? INT64_MIN : INT64_MAX;
  return static_cast<int64_t>(d_);
}
double Json::as_double() const {
  assert(is_number());
  return type_ == Type::kInt ? static_cast<double>(i_) : d_;
}
const std::string& Json::as_string() const {
  assert(type_ == Type::kString);
  return s_;
}
std::string& Json::as_string() {
  assert(type_ == Type::kString);
  return s_;
}
const Json::Array& Json::as_array() const {
  assert(type_ == Type::kArray);
  return *a_;
}
Json::Array& Json::as_array() {
  assert(type_ == Type::kArray);
  return *a_;
}
const Json::Object& Json::as_object() const {
  assert(type_ == Type::kObject);
  return *o_;
}
Json::Object& Json::as_object() {
  assert(type_ == Type::kObject);
  return *o_;
}

const Json* Json::find(std::string_view key) const {
  if (type_ != Type::kObject) return nullptr;
  for (const auto& [k, v] : *o_) {
    if (k == key) return &v;
  }
  return nullptr;
}

Json* Json::find(std::string_view key) {
  return const_cast<Json*>(static_cast<const Json*>(this)->find(key));
}

Json& Json::set(std::string_view key, Json value) {
  if (type_ == Type::kNull) *this = MakeObject();
  assert(type_ == Type::kObject);
  if (Json* existing = find(key)) {
    *existing = std::move(value);
    return *existing;
  }
  o_->emplace_back(std::string(key), std::move(value));
  return o_->back().second;
}

Json& Json::operator[](std::string_view key) {
  if (Json* existing = find(key)) return *existing;
  return set(key, Json());
}

bool Json::erase(std::string_view key) {
  if (type_ != Type::kObject) return false;
  for (auto it = o_->begin(); it != o_->end(); ++it) {
    if (it->first == key) {
      o_->erase(it);
      return true;
    }
  }
  return false;
}

void Json::push_back(Json value) {
  if (type_ == Type::kNull) *this = MakeArray();
  assert(type_ == Type::kArray);
  a_->push_back(std::move(value));
}

size_t Json::size() const {
  if (type_ == Type::kArray) return a_->size();
  if (type_ == Type::kObject) return o_->size();
  return 0;
}

bool Json::operator==(const Json& other) const {
  if (is_number() && other.is_number()) {
    if (type_ == Type::kInt && other.type_ == Type::kInt) return i_ == other.i_;
    return as_double() == other.as_double();
  }
  if (type_ != other.type_) return false;
  switch (type_) {
    case Type::kNull: return true;
    case Type::kBool: return b_ == other.b_;
    case Type::kString: return s_ == other.s_;
    case Type::kArray: return *a_ == *other.a_;
    case Type::kObject: {
      if (o_->size() != other.o_->size()) return false;
      for (const auto& [k, v] : *o_) {
        const Json* ov = other.find(k);
        if (ov == nullptr || !(v == *ov)) return false;
      }
      return true;
    }
    default: return false;
  }
}

// -- parsing ------------------------------------------------------------------------------------

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
      case '{': return ParseObject(out, depth);
      case '[': return ParseArray(out, depth);
      case '"': {
        std::string s;
        if (!ParseString(s)) return false;
        out = Json(std::move(s));
        return true;
      }
      case 't':
        if (Literal("true")) { out = Json(true); return true; }
        break;
      case 'f':
        if (Literal("false")) { out = Json(false); return true; }
        break;
      case 'n':
        if (Literal("null")) { out = Json(); return true; }
        break;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(out);
    }
    Fail(std::string("unexpected character '") + c + "', expected a value");
    return false;
  }

  bool ParseObject(Json& out, size_t depth) {
    ++pos_;  // '{'
    Json::Object members;
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      out = Json(std::move(members));
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
      // Duplicate keys: the last one wins, as in most parsers.
      bool replaced = false;
      for (auto& m : members) {
        if (m.first == key) {
          m.second = std::move(value);
          replaced = true;
          break;
        }
      }
      if (!replaced) members.emplace_back(std::move(key), std::move(value));
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        out = Json(std::move(members));
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

  static int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool ParseHex4(uint32_t& out) {
    if (pos_ + 4 > text_.size()) {
      Fail("truncated \\u escape");
      return false;
    }
    out = 0;
    for (int i = 0; i < 4; ++i) {
      int h = HexValue(text_[pos_ + i]);
      if (h < 0) {
        Fail("invalid hex digit in \\u escape");
        return false;
      }
      out = out * 16 + static_cast<uint32_t>(h);
    }
    pos_ += 4;
    return true;
  }

  static void AppendUtf8(std::string& s, uint32_t cp) {
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else if (cp < 0x800) {
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += static_cast<char>(0xE0 | (cp >> 12));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      s += static_cast<char>(0xF0 | (cp >> 18));
      s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool ParseString(std::string& out) {
    ++pos_;  // opening quote
    while (true) {
      size_t start = pos_;
      while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\\' &&
             static_cast<unsigned char>(text_[pos_]) >= 0x20) {
        ++pos_;
      }
      out.append(text_.data() + start, pos_ - start);
      if (pos_ >= text_.size()) {
        Fail("unterminated string");
        return false;
      }
      char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c != '\\') {
        Fail("control character in string");
        return false;
      }
      ++pos_;
      if (pos_ >= text_.size()) {
        Fail("unterminated escape");
        return false;
      }
      char e = text_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t cp;
          if (!ParseHex4(cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF && pos_ + 6 <= text_.size() && text_[pos_] == '\\' &&
              text_[pos_ + 1] == 'u') {
            size_t save = pos_;
            pos_ += 2;
            uint32_t lo;
            if (!ParseHex4(lo)) return false;
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else {
              pos_ = save;  // lone high surrogate; keep it as is
            }
          }
          AppendUtf8(out, cp);
          break;
        }
        default:
          --pos_;
          Fail(std::string("invalid escape '\\") + e + "'");
          return false;
      }
    }
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
    // Doubles and integers too large for int64: strtod on a bounded copy.
    std::string copy(num);
    double d = std::strtod(copy.c_str(), nullptr);
    out = Json(d);
    return true;
  }

  std::string_view text_;
  const ParseOptions& options_;
  size_t pos_ = 0;
  Status error_;
};

void AppendDouble(std::string& out, double d) {
  if (!std::isfinite(d)) {
    out += "null";  // JSON has no NaN or infinity
    return;
  }
  char buf[32];
  auto [p, ec] = std::to_chars(buf, buf + sizeof(buf), d);
  std::string_view s(buf, static_cast<size_t>(p - buf));
  out += s;
  if (s.find_first_of(".eEn") == std::string_view::npos) out += ".0";
}

void Write(std::string& out, const Json& v, bool pretty, int indent) {
  auto newline = [&](int level) {
    if (!pretty) return;
    out += '\n';
    out.append(static_cast<size_t>(level) * 2, ' ');
  };
  switch (v.type()) {
    case Json::Type::kNull: out += "null"; break;
    case Json::Type::kBool: out += v.as_bool() ? "true" : "false"; break;
    case Json::Type::kInt: out += std::to_string(v.as_int()); break;
    case Json::Type::kDouble: AppendDouble(out, v.as_double()); break;
    case Json::Type::kString: AppendJsonString(out, v.as_string()); break;
    case Json::Type::kArray: {
      const auto& a = v.as_array();
      out += '[';
      for (size_t i = 0; i < a.size(); ++i) {
        if (i) out += ',';
        newline(indent + 1);
        Write(out, a[i], pretty, indent + 1);
      }
      if (!a.empty()) newline(indent);
      out += ']';
      break;
    }
    case Json::Type::kObject: {
      const auto& o = v.as_object();
      out += '{';
      for (size_t i = 0; i < o.size(); ++i) {
        if (i) out += ',';
        newline(indent + 1);
        AppendJsonString(out, o[i].first);
        out += pretty ? ": " : ":";
        Write(out, o[i].second, pretty, indent + 1);
      }
      if (!o.empty()) newline(indent);
      out += '}';
      break;
    }
  }
}

}  // namespace

Result<Json> ParseJson(std::string_view text, const ParseOptions& options) {
  return Parser(text, options).Run();
}

void AppendJsonString(std::string& out, std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  out += '"';
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

std::string ToJson(const Json& value, bool pretty) {
  std::string out;
  Write(out, value, pretty, 0);
  return out;
}

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Unavailable("cannot read " + path);
  return ss.str();
}

}  // namespace structure
