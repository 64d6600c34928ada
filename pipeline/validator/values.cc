#include "pipeline/validator/values.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "pipeline/validator/big_integers.h"

namespace structure::pipeline::validator_internal {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

bool IsNumber(element_type t) {
  return t == element_type::INT64 || t == element_type::UINT64 || t == element_type::DOUBLE;
}

bool NumbersEqual(const element& a, const element& b) {
  element_type ta = a.type(), tb = b.type();
  if (ta == element_type::INT64 && tb == element_type::INT64) {
    return a.get_int64().value_unsafe() == b.get_int64().value_unsafe();
  }
  if (ta == element_type::UINT64 && tb == element_type::UINT64) {
    return a.get_uint64().value_unsafe() == b.get_uint64().value_unsafe();
  }
  return NumberValue(a) == NumberValue(b);
}

std::string Cut(std::string text, size_t max_chars) {
  if (text.size() <= max_chars) return text;
  size_t cut = max_chars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  text += "...";
  return text;
}

}  // namespace

double NumberValue(const element& e) {
  switch (e.type()) {
    case element_type::INT64:
      return static_cast<double>(e.get_int64().value_unsafe());
    case element_type::UINT64:
      return static_cast<double>(e.get_uint64().value_unsafe());
    case element_type::DOUBLE:
      return e.get_double().value_unsafe();
    default:
      return 0;
  }
}

namespace {

// The decimal digits of an integer-valued number ("-123"), or "" when it is not an integer.
std::string IntegerText(double d) {
  if (!std::isfinite(d) || d != std::trunc(d)) return "";
  if (std::fabs(d) < 9007199254740992.0) return std::to_string(static_cast<int64_t>(d));
  char buf[400];
  std::snprintf(buf, sizeof(buf), "%.0f", d);  // exact: a double this large is an integer
  return buf;
}

std::string IntegerText(const element& e) {
  switch (e.type()) {
    case element_type::INT64:
      return std::to_string(e.get_int64().value_unsafe());
    case element_type::UINT64:
      return std::to_string(e.get_uint64().value_unsafe());
    case element_type::DOUBLE: {
      double d = e.get_double().value_unsafe();
      const std::string* exact = ExactBigInteger(d);
      return exact != nullptr ? *exact : IntegerText(d);
    }
    default:
      return "";
  }
}

std::string IntegerText(const Json& j) {
  if (!j.big_integer().empty()) return std::string(j.big_integer());
  if (j.is_int()) return std::to_string(j.as_int());
  return j.is_number() ? IntegerText(j.as_double()) : "";
}

// Sign of a - b for decimal integer texts.
int CompareDecimal(std::string_view a, std::string_view b) {
  bool na = !a.empty() && a[0] == '-', nb = !b.empty() && b[0] == '-';
  if (na != nb) return na ? -1 : 1;
  auto digits = [](std::string_view s) {
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
    while (s.size() > 1 && s[0] == '0') s.remove_prefix(1);
    return s;
  };
  std::string_view da = digits(a), db = digits(b);
  int c = da.size() != db.size() ? (da.size() < db.size() ? -1 : 1) : da.compare(db);
  c = c < 0 ? -1 : (c > 0 ? 1 : 0);
  return na ? -c : c;
}

}  // namespace

int CompareIntegersExactly(const element& e, const Json& bound) {
  std::string a = IntegerText(e);
  std::string b = IntegerText(bound);
  if (a.empty() || b.empty()) return 0;
  return CompareDecimal(a, b);
}

bool ElementsEqual(const element& a, const element& b) {
  element_type ta = a.type(), tb = b.type();
  if (IsNumber(ta) && IsNumber(tb)) return NumbersEqual(a, b);
  if (ta != tb) return false;
  switch (ta) {
    case element_type::NULL_VALUE:
      return true;
    case element_type::BOOL:
      return a.get_bool().value_unsafe() == b.get_bool().value_unsafe();
    case element_type::STRING:
      return a.get_string().value_unsafe() == b.get_string().value_unsafe();
    case element_type::ARRAY: {
      simdjson::dom::array aa = a.get_array().value_unsafe(), ba = b.get_array().value_unsafe();
      auto ia = aa.begin(), ib = ba.begin();
      for (; ia != aa.end() && ib != ba.end(); ++ia, ++ib) {
        if (!ElementsEqual(*ia, *ib)) return false;
      }
      return ia == aa.end() && ib == ba.end();
    }
    case element_type::OBJECT: {
      simdjson::dom::object oa = a.get_object().value_unsafe(), ob = b.get_object().value_unsafe();
      if (oa.size() != ob.size()) return false;
      for (auto field : oa) {
        element other;
        if (ob.at_key(field.key).get(other) != simdjson::SUCCESS) return false;
        if (!ElementsEqual(field.value, other)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

bool ElementEqualsJson(const element& a, const Json& b) {
  element_type ta = a.type();
  switch (ta) {
    case element_type::NULL_VALUE:
      return b.is_null();
    case element_type::BOOL:
      return b.is_bool() && b.as_bool() == a.get_bool().value_unsafe();
    case element_type::INT64:
      if (b.is_int()) return b.as_int() == a.get_int64().value_unsafe();
      return b.is_number() && b.as_double() == NumberValue(a) && CompareIntegersExactly(a, b) == 0;
    case element_type::UINT64:
    case element_type::DOUBLE:
      return b.is_number() && b.as_double() == NumberValue(a) && CompareIntegersExactly(a, b) == 0;
    case element_type::STRING:
      return b.is_string() && b.as_string() == a.get_string().value_unsafe();
    case element_type::ARRAY: {
      if (!b.is_array()) return false;
      const Json::Array& items = b.as_array();
      size_t i = 0;
      simdjson::dom::array arr = a.get_array().value_unsafe();
      for (element item : arr) {
        if (i >= items.size() || !ElementEqualsJson(item, items[i])) return false;
        ++i;
      }
      return i == items.size();
    }
    case element_type::OBJECT: {
      if (!b.is_object()) return false;
      simdjson::dom::object obj = a.get_object().value_unsafe();
      if (obj.size() != b.size()) return false;
      for (auto field : obj) {
        const Json* other = b.find(field.key);
        if (other == nullptr || !ElementEqualsJson(field.value, *other)) return false;
      }
      return true;
    }
  }
  return false;
}

uint64_t ElementHash(const element& e) {
  switch (e.type()) {
    case element_type::NULL_VALUE:
      return 0x9e3779b97f4a7c15ULL;
    case element_type::BOOL:
      return e.get_bool().value_unsafe() ? 0x51ed27a3ULL : 0x2545f491ULL;
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE: {
      double v = NumberValue(e);
      if (v == 0) v = 0;  // -0.0 == 0.0
      return std::hash<double>()(v) * 3 + 1;
    }
    case element_type::STRING:
      return std::hash<std::string_view>()(e.get_string().value_unsafe()) * 5 + 2;
    case element_type::ARRAY: {
      uint64_t h = 7;
      simdjson::dom::array arr = e.get_array().value_unsafe();
      for (element item : arr) h = h * 1000003 + ElementHash(item);
      return h;
    }
    case element_type::OBJECT: {
      uint64_t h = 11;
      simdjson::dom::object obj = e.get_object().value_unsafe();
      for (auto field : obj) {
        uint64_t kh = std::hash<std::string_view>()(field.key);
        h += (kh * 31) ^ ElementHash(field.value);  // order-independent
      }
      return h;
    }
  }
  return 0;
}

namespace {

// Compact JSON of e that stops once the text passes `limit` characters or the nesting passes 32
// levels, so an error message never walks a huge or deeply nested value (simdjson's minify
// recurses once per level).
void AppendBounded(const element& e, std::string& out, size_t limit, int depth) {
  if (e.is_array()) {
    if (depth >= 32) {
      out += "[...]";
      return;
    }
    out += '[';
    bool first = true;
    simdjson::dom::array arr;
    if (e.get_array().get(arr) == simdjson::SUCCESS) {
      for (element child : arr) {
        if (out.size() > limit) break;
        if (!first) out += ',';
        first = false;
        AppendBounded(child, out, limit, depth + 1);
      }
    }
    out += ']';
  } else if (e.is_object()) {
    if (depth >= 32) {
      out += "{...}";
      return;
    }
    out += '{';
    bool first = true;
    simdjson::dom::object obj;
    if (e.get_object().get(obj) == simdjson::SUCCESS) {
      for (auto field : obj) {
        if (out.size() > limit) break;
        if (!first) out += ',';
        first = false;
        AppendJsonString(out, field.key);
        out += ':';
        AppendBounded(field.value, out, limit, depth + 1);
      }
    }
    out += '}';
  } else if (e.is_string()) {
    AppendJsonString(out, e.get_string().value_unsafe());  // escapes as simdjson::minify does
  } else if (e.is_int64()) {
    out += std::to_string(e.get_int64().value_unsafe());
  } else if (e.is_uint64()) {
    out += std::to_string(e.get_uint64().value_unsafe());
  } else if (const std::string* exact =
                 e.is_double() ? ExactBigInteger(e.get_double().value_unsafe()) : nullptr) {
    out += *exact;
  } else {
    out += simdjson::minify(e);
  }
}

}  // namespace

std::string CompactTruncated(const element& e, size_t max_chars) {
  std::string out;
  AppendBounded(e, out, max_chars, 0);
  return Cut(std::move(out), max_chars);
}

std::string CompactTruncated(const Json& j, size_t max_chars) { return Cut(ToJson(j), max_chars); }

std::string FormatNumber(double v) {
  if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 1e15) {
    return std::to_string(static_cast<long long>(v));
  }
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  if (ec != std::errc()) return "?";
  return std::string(buf, end);
}

size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace structure::pipeline::validator_internal
