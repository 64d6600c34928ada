#include <algorithm>
#include <cmath>
#include <limits>

#include "pipeline/generate/generate_internal.h"
#include "pipeline/generate/regex_sample.h"

namespace structure::pipeline::detail {
namespace {

size_t SizeKeyword(const Json& s, std::string_view key, size_t fallback) {
  const Json* v = s.find(key);
  if (!v || !v->is_number() || v->as_double() < 0) return fallback;
  double d = v->as_double();
  return d > 1e9 ? static_cast<size_t>(1e9) : static_cast<size_t>(d);
}

std::string Hex(std::mt19937_64& rng, int n) {
  static const char* kHex = "0123456789abcdef";
  std::string s;
  for (int i = 0; i < n; ++i) s += kHex[rng() % 16];
  return s;
}

}  // namespace

std::optional<std::string> SampleFormat(std::string_view f, std::mt19937_64& rng, size_t min_len,
                                        size_t max_len) {
  int n = static_cast<int>(rng() % 9) + 1;
  std::string d = std::to_string(n);
  std::string s;
  if (f == "date-time") {
    s = "2024-0" + d + "-1" + d + "T10:2" + d + ":3" + d + "Z";
  } else if (f == "date") {
    s = "2024-0" + d + "-1" + d;
  } else if (f == "time") {
    s = "10:2" + d + ":3" + d + "Z";
  } else if (f == "duration") {
    s = "P" + d + "DT" + d + "H";
  } else if (f == "email" || f == "idn-email") {
    s = "user" + d + "@example.com";
  } else if (f == "hostname" || f == "idn-hostname") {
    s = "host" + d + ".example.com";
  } else if (f == "ipv4") {
    s = "192.168.1." + d;
  } else if (f == "ipv6") {
    s = "2001:db8::" + d;
  } else if (f == "uuid") {
    s = Hex(rng, 8) + "-" + Hex(rng, 4) + "-4" + Hex(rng, 3) + "-8" + Hex(rng, 3) + "-" +
        Hex(rng, 12);
  } else if (f == "uri" || f == "iri") {
    s = "https://example.com/p" + d;
  } else if (f == "uri-reference" || f == "iri-reference") {
    s = "/p" + d;
  } else if (f == "uri-template") {
    s = "https://example.com/{id" + d + "}";
  } else if (f == "json-pointer") {
    s = "/a/" + d;
  } else if (f == "relative-json-pointer") {
    s = "0/a" + d;
  } else if (f == "regex") {
    s = "^a" + d + "+$";
  } else {
    return std::nullopt;
  }
  size_t len = CodePointCount(s);
  if (len < min_len || len > max_len) return std::nullopt;
  return s;
}

Result<Json> GenerateString(const Json& schema, std::mt19937_64& rng, const GenerateOptions& opt) {
  size_t min_len = SizeKeyword(schema, "minLength", 0);
  size_t max_len = SizeKeyword(schema, "maxLength", std::numeric_limits<size_t>::max());
  if (min_len > max_len) return InvalidArgument("minLength is greater than maxLength");
  size_t soft_max = std::max(min_len, std::min(max_len, opt.max_string_length));
  if (const Json* p = schema.find("pattern"); p && p->is_string()) {
    Result<std::string> s = SampleRegexMatch(p->as_string(), rng(), min_len,
                                             std::max(soft_max, std::min(max_len, min_len + 64)));
    if (!s.ok()) return s.status();
    return Json(std::move(*s));
  }
  if (const Json* f = schema.find("format"); f && f->is_string()) {
    if (auto s = SampleFormat(f->as_string(), rng, min_len, max_len)) return Json(std::move(*s));
  }
  if (min_len > 100000) return InvalidArgument("minLength too large to generate");
  size_t len = min_len + (soft_max > min_len ? rng() % (soft_max - min_len + 1) : 0);
  std::string s;
  const Json* d = schema.find("description");
  if (d != nullptr && d->is_string() && d->as_string().ends_with(kJsonTextNote) && max_len >= 2) {
    // Any JSON value as its text: a string value, quotes included.
    len = std::max<size_t>(len, 2);
    s = "\"";
    for (size_t i = 2; i < len; ++i) s += static_cast<char>('a' + rng() % 26);
    return Json(s + "\"");
  }
  for (size_t i = 0; i < len; ++i) s += static_cast<char>('a' + rng() % 26);
  return Json(std::move(s));
}

Result<Json> GenerateNumber(const Json& schema, bool integer, std::mt19937_64& rng) {
  double lo = -1e6, hi = 1e6;
  bool lo_set = false, hi_set = false, lo_excl = false, hi_excl = false;
  auto num = [&](std::string_view k) -> const Json* {
    const Json* v = schema.find(k);
    return v && v->is_number() ? v : nullptr;
  };
  if (const Json* v = num("minimum")) lo = v->as_double(), lo_set = true;
  if (const Json* v = num("maximum")) hi = v->as_double(), hi_set = true;
  if (const Json* v = num("exclusiveMinimum"); v && (!lo_set || v->as_double() >= lo))
    lo = v->as_double(), lo_set = true, lo_excl = true;
  if (const Json* v = num("exclusiveMaximum"); v && (!hi_set || v->as_double() <= hi))
    hi = v->as_double(), hi_set = true, hi_excl = true;
  // Draft-04 boolean exclusive bounds.
  if (const Json* v = schema.find("exclusiveMinimum"); v && v->is_bool() && v->as_bool())
    lo_excl = true;
  if (const Json* v = schema.find("exclusiveMaximum"); v && v->is_bool() && v->as_bool())
    hi_excl = true;
  // Prefer small, readable numbers when the bounds allow them.
  double want_lo = lo_set ? lo : (hi_set ? std::min(0.0, hi - 100) : 0);
  double want_hi = hi_set ? hi : want_lo + 100;
  if (!lo_set && hi_set) want_lo = std::min(want_lo, hi);
  if (want_hi > want_lo + 1000) want_hi = want_lo + 1000;
  double step = 0;
  if (const Json* m = num("multipleOf"); m && m->as_double() > 0) step = m->as_double();
  if (integer && step == 0) step = 1;
  auto ok = [&](double x) {
    if (x < lo || (lo_excl && x <= lo) || x > hi || (hi_excl && x >= hi)) return false;
    if (integer && std::floor(x) != x) return false;
    if (step > 0) {
      double q = x / step;
      if (std::fabs(q - std::round(q)) > 1e-9) return false;
    }
    return std::isfinite(x);
  };
  for (int attempt = 0; attempt < 64; ++attempt) {
    double span = want_hi - want_lo;
    double x;
    if (step > 0) {
      double k0 = std::ceil(want_lo / step), k1 = std::floor(want_hi / step);
      if (k1 < k0) k1 = k0 + 1;
      double k =
          k0 + static_cast<double>(rng() % static_cast<uint64_t>(std::min(k1 - k0 + 1, 1e6)));
      x = k * step;
      if (integer && std::floor(x) != x) continue;
    } else {
      x = want_lo + span * static_cast<double>(rng() % 1000) / 1000.0;
      x = std::round(x * 4) / 4;
      if (attempt > 32) x = (want_lo + want_hi) / 2;
    }
    if (ok(x)) {
      if (std::floor(x) == x && std::fabs(x) < 9e15 && (integer || rng() % 2 == 0))
        return Json(static_cast<int64_t>(x));
      return Json(x);
    }
  }
  return InvalidArgument("no number satisfies the bounds");
}

}  // namespace structure::pipeline::detail
