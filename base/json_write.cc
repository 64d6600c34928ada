// Serializing Json to text, compact or indented.
#include <charconv>
#include <cmath>

#include "base/json.h"

namespace structure {

namespace {

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

void AppendJsonString(std::string& out, std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  out += '"';
  // Runs of characters that need no escape are copied whole.
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

std::string ToJson(const Json& value, bool pretty) {
  std::string out;
  Write(out, value, pretty, 0);
  return out;
}

}  // namespace structure
