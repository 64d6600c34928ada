// Serializing Json to text, compact or indented.
#include <charconv>
#include <cmath>

#include "base/json.h"
#include "base/json_scan.h"
#include "base/json_writer.h"
#include "base/utf8.h"

namespace structure {

namespace {

// Counts what would be written, for JsonTextSize: the serializer below writes to either.
struct ByteCounter {
  size_t n = 0;
  ByteCounter& operator+=(char) {
    ++n;
    return *this;
  }
  ByteCounter& operator+=(std::string_view s) {
    n += s.size();
    return *this;
  }
  void append(const char*, size_t len) { n += len; }
  void append(size_t len, char) { n += len; }
};

template <typename Out>
void AppendDouble(Out& out, double d) {
  if (!std::isfinite(d)) {
    out += std::string_view("null");  // JSON has no NaN or infinity
    return;
  }
  char buf[32];
  auto [p, ec] = std::to_chars(buf, buf + sizeof(buf), d);
  std::string_view s(buf, static_cast<size_t>(p - buf));
  out += s;
  if (s.find_first_of(".eEn") == std::string_view::npos) out += std::string_view(".0");
}

template <typename Out>
void AppendInt(Out& out, int64_t v) {
  char buf[24];
  auto [p, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  out += std::string_view(buf, static_cast<size_t>(p - buf));
}

// s[from, to), where no byte needs an escape. Bytes that are not well-formed UTF-8 are written
// as U+FFFD each: every input is checked where it enters, so this is a last guard that keeps
// what we send and print valid JSON whatever a caller put in a string.
template <typename Out>
void AppendPlain(Out& out, std::string_view s, size_t from, size_t to, bool non_ascii) {
  if (!non_ascii) {
    out.append(s.data() + from, to - from);
    return;
  }
  while (from < to) {
    size_t bad = Utf8ErrorAt(s, from, to);
    if (bad == std::string_view::npos) bad = to;
    out.append(s.data() + from, bad - from);
    if (bad == to) return;
    out += std::string_view("\xEF\xBF\xBD");
    from = bad + 1;
  }
}

template <typename Out>
void AppendString(Out& out, std::string_view s) {
  static const char kHex[] = "0123456789abcdef";
  out += '"';
  // Runs of characters that need no escape are copied whole.
  size_t run = 0;
  while (true) {
    bool non_ascii;
    size_t i = PlainRunEnd(s, run, &non_ascii);
    AppendPlain(out, s, run, i, non_ascii);
    if (i == s.size()) break;
    unsigned char c = static_cast<unsigned char>(s[i]);
    run = i + 1;
    switch (c) {
      case '"':
        out += std::string_view("\\\"");
        break;
      case '\\':
        out += std::string_view("\\\\");
        break;
      case '\n':
        out += std::string_view("\\n");
        break;
      case '\r':
        out += std::string_view("\\r");
        break;
      case '\t':
        out += std::string_view("\\t");
        break;
      case '\b':
        out += std::string_view("\\b");
        break;
      case '\f':
        out += std::string_view("\\f");
        break;
      default:
        out += std::string_view("\\u00");
        out += kHex[c >> 4];
        out += kHex[c & 0xF];
    }
  }
  out += '"';
}

template <typename Out>
void Write(Out& out, const Json& v, bool pretty, int indent,
           std::span<const JsonSplice> splices = {}) {
  for (const JsonSplice& s : splices) {
    if (s.at == &v) {
      out += s.text;
      return;
    }
  }
  auto newline = [&](int level) {
    if (!pretty) return;
    out += '\n';
    out.append(static_cast<size_t>(level) * 2, ' ');
  };
  switch (v.type()) {
    case Json::Type::kNull:
      out += std::string_view("null");
      break;
    case Json::Type::kBool:
      out += std::string_view(v.as_bool() ? "true" : "false");
      break;
    case Json::Type::kInt:
      AppendInt(out, v.as_int());
      break;
    case Json::Type::kDouble:
      if (std::string_view big = v.big_integer(); !big.empty()) {
        out += big;
      } else {
        AppendDouble(out, v.as_double());
      }
      break;
    case Json::Type::kString:
      AppendString(out, v.as_string());
      break;
    case Json::Type::kArray: {
      const auto& a = v.as_array();
      out += '[';
      for (size_t i = 0; i < a.size(); ++i) {
        if (i) out += ',';
        newline(indent + 1);
        Write(out, a[i], pretty, indent + 1, splices);
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
        AppendString(out, o[i].first);
        out += std::string_view(pretty ? ": " : ":");
        Write(out, o[i].second, pretty, indent + 1, splices);
      }
      if (!o.empty()) newline(indent);
      out += '}';
      break;
    }
  }
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view s) { AppendString(out, s); }

void AppendJsonDouble(std::string& out, double d) { AppendDouble(out, d); }

std::string ToJson(const Json& value, bool pretty) {
  std::string out;
  Write(out, value, pretty, 0);
  return out;
}

std::string ToJsonSpliced(const Json& value, std::span<const JsonSplice> splices) {
  std::string out;
  Write(out, value, false, 0, splices);
  return out;
}

size_t JsonTextSize(const Json& value) {
  ByteCounter count;
  Write(count, value, false, 0);
  return count.n;
}

}  // namespace structure
