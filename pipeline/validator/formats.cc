#include "pipeline/validator/formats.h"

#include <cstdint>
#include <string>

#include "base/json_pointer.h"
#include "pipeline/validator/idna.h"
#include "pipeline/validator/regex.h"

namespace structure::pipeline {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Reads exactly n digits at s[*i] into *value.
bool Digits(std::string_view s, size_t* i, size_t n, int* value) {
  if (*i + n > s.size()) return false;
  int v = 0;
  for (size_t k = 0; k < n; ++k) {
    char c = s[*i + k];
    if (!IsDigit(c)) return false;
    v = v * 10 + (c - '0');
  }
  *i += n;
  *value = v;
  return true;
}

bool IsLeapYear(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

bool FullDate(std::string_view s, size_t* i) {
  int y, m, d;
  if (!Digits(s, i, 4, &y) || *i >= s.size() || s[(*i)++] != '-') return false;
  if (!Digits(s, i, 2, &m) || *i >= s.size() || s[(*i)++] != '-') return false;
  if (!Digits(s, i, 2, &d)) return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1) return false;
  int max_day = kDays[m - 1] + (m == 2 && IsLeapYear(y) ? 1 : 0);
  return d <= max_day;
}

// RFC 3339 full-time: HH:MM:SS[.frac](Z|+HH:MM|-HH:MM); a leap second only at 23:59 UTC.
bool FullTime(std::string_view s, size_t* i) {
  int h, m, sec;
  if (!Digits(s, i, 2, &h) || *i >= s.size() || s[(*i)++] != ':') return false;
  if (!Digits(s, i, 2, &m) || *i >= s.size() || s[(*i)++] != ':') return false;
  if (!Digits(s, i, 2, &sec)) return false;
  if (h > 23 || m > 59 || sec > 60) return false;
  if (*i < s.size() && s[*i] == '.') {
    ++*i;
    size_t start = *i;
    while (*i < s.size() && IsDigit(s[*i])) ++*i;
    if (*i == start) return false;
  }
  if (*i >= s.size()) return false;
  int offset_minutes = 0;
  char z = s[*i];
  if (z == 'Z' || z == 'z') {
    ++*i;
  } else if (z == '+' || z == '-') {
    ++*i;
    int oh, om;
    if (!Digits(s, i, 2, &oh) || *i >= s.size() || s[(*i)++] != ':') return false;
    if (!Digits(s, i, 2, &om)) return false;
    if (oh > 23 || om > 59) return false;
    offset_minutes = (oh * 60 + om) * (z == '+' ? 1 : -1);
  } else {
    return false;
  }
  if (sec == 60) {
    int utc = ((h * 60 + m - offset_minutes) % 1440 + 1440) % 1440;
    if (utc != 23 * 60 + 59) return false;
  }
  return true;
}

bool IsDateTime(std::string_view s) {
  size_t i = 0;
  if (!FullDate(s, &i) || i >= s.size()) return false;
  if (s[i] != 'T' && s[i] != 't') return false;
  ++i;
  return FullTime(s, &i) && i == s.size();
}

bool IsDate(std::string_view s) {
  size_t i = 0;
  return FullDate(s, &i) && i == s.size();
}

bool IsTime(std::string_view s) {
  size_t i = 0;
  return FullTime(s, &i) && i == s.size();
}

// RFC 3339 Appendix A: units in order and contiguous (Y M D, H M S), or weeks alone.
bool IsDuration(std::string_view s) {
  if (s.size() < 2 || s[0] != 'P') return false;
  size_t i = 1;
  auto read_unit = [&](char* unit) {
    size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == start || i >= s.size()) return false;
    *unit = s[i++];
    return true;
  };
  static constexpr std::string_view kDateUnits = "YMD";
  static constexpr std::string_view kTimeUnits = "HMS";
  int last = -1;
  bool any_date = false;
  while (i < s.size() && s[i] != 'T') {
    char unit;
    if (!read_unit(&unit)) return false;
    if (unit == 'W') return !any_date && i == s.size();
    size_t pos = kDateUnits.find(unit);
    if (pos == std::string_view::npos) return false;
    if (last >= 0 && static_cast<int>(pos) != last + 1) return false;
    last = static_cast<int>(pos);
    any_date = true;
  }
  if (i == s.size()) return any_date;
  ++i;  // 'T'
  if (i == s.size()) return false;
  last = -1;
  while (i < s.size()) {
    char unit;
    if (!read_unit(&unit)) return false;
    size_t pos = kTimeUnits.find(unit);
    if (pos == std::string_view::npos) return false;
    if (last >= 0 && static_cast<int>(pos) != last + 1) return false;
    last = static_cast<int>(pos);
  }
  return true;
}

bool IsUuid(std::string_view s) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < 36; ++i) {
    bool hyphen = i == 8 || i == 13 || i == 18 || i == 23;
    if (hyphen ? s[i] != '-' : !IsHex(s[i])) return false;
  }
  return true;
}

bool IsUnreserved(char c) {
  return IsAlpha(c) || IsDigit(c) || c == '-' || c == '.' || c == '_' || c == '~';
}
bool IsSubDelim(char c) {
  return c == '!' || c == '$' || c == '&' || c == '\'' || c == '(' || c == ')' || c == '*' ||
         c == '+' || c == ',' || c == ';' || c == '=';
}

// True when every char of s is unreserved, sub-delim, %HH, or in extra; with iri, a byte of a
// non-ASCII character (RFC 3987's ucschar and iprivate) too.
bool UriChars(std::string_view s, std::string_view extra, bool iri = false) {
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (iri && static_cast<unsigned char>(c) >= 0x80) continue;
    if (c == '%') {
      if (i + 2 >= s.size()) return false;
      if (!IsHex(s[i + 1]) || !IsHex(s[i + 2])) return false;
      i += 2;
      continue;
    }
    if (IsUnreserved(c) || IsSubDelim(c) || extra.find(c) != std::string_view::npos) continue;
    return false;
  }
  return true;
}

bool Authority(std::string_view a, bool iri) {
  size_t at = a.rfind('@');
  if (at != std::string_view::npos) {
    if (!UriChars(a.substr(0, at), ":", iri)) return false;
    a = a.substr(at + 1);
  }
  std::string_view host = a;
  std::string_view port;
  if (!a.empty() && a[0] == '[') {
    size_t close = a.find(']');
    if (close == std::string_view::npos) return false;
    host = a.substr(1, close - 1);
    std::string_view rest = a.substr(close + 1);
    if (!rest.empty()) {
      if (rest[0] != ':') return false;
      port = rest.substr(1);
    }
    bool future = !host.empty() && (host[0] == 'v' || host[0] == 'V');
    if (future ? !UriChars(host, ":") : !IsIpv6(host)) return false;
  } else {
    size_t colon = a.rfind(':');
    if (colon != std::string_view::npos) {
      host = a.substr(0, colon);
      port = a.substr(colon + 1);
    }
    if (!UriChars(host, "", iri)) return false;
  }
  for (char c : port) {
    if (!IsDigit(c)) return false;
  }
  return true;
}

// RFC 3986 URI (require_scheme) or URI-reference; with iri, RFC 3987 IRI or IRI-reference.
// A URI and an IRI begin with a scheme ("https:", "urn:"): "//host/path", "/path" and
// "file.txt" are references only.
bool IsUri(std::string_view s, bool require_scheme, bool iri = false) {
  size_t hash = s.find('#');
  if (hash != std::string_view::npos) {
    if (!UriChars(s.substr(hash + 1), ":@/?", iri)) return false;
    s = s.substr(0, hash);
  }
  size_t question = s.find('?');
  if (question != std::string_view::npos) {
    if (!UriChars(s.substr(question + 1), ":@/?", iri)) return false;
    s = s.substr(0, question);
  }
  size_t colon = s.find(':');
  size_t slash = s.find('/');
  bool has_scheme =
      colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash);
  if (has_scheme) {
    std::string_view scheme = s.substr(0, colon);
    if (scheme.empty() || !IsAlpha(scheme[0])) return false;
    for (char c : scheme) {
      if (!IsAlpha(c) && !IsDigit(c) && c != '+' && c != '-' && c != '.') return false;
    }
    s = s.substr(colon + 1);
  } else if (require_scheme) {
    return false;
  }
  if (s.starts_with("//")) {
    s = s.substr(2);
    size_t end = s.find('/');
    std::string_view authority = s.substr(0, end);
    if (!Authority(authority, iri)) return false;
    s = end == std::string_view::npos ? std::string_view() : s.substr(end);
  }
  return UriChars(s, ":@/", iri);
}

bool IsEmail(std::string_view s) {
  size_t at = s.rfind('@');
  if (at == std::string_view::npos || at == 0 || at + 1 >= s.size()) return false;
  std::string_view local = s.substr(0, at);
  std::string_view domain = s.substr(at + 1);
  if (local.size() >= 2 && local.front() == '"' && local.back() == '"') {
    for (size_t i = 1; i + 1 < local.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(local[i]);
      if (c == '\\') {
        ++i;
        continue;
      }
      if (c == '"' || c < 0x20 || c >= 0x7F) return false;
    }
  } else {
    if (local.front() == '.' || local.back() == '.') return false;
    static constexpr std::string_view kSpecial = "!#$%&'*+-/=?^_`{|}~.";
    for (size_t i = 0; i < local.size(); ++i) {
      char c = local[i];
      if (c == '.' && i > 0 && local[i - 1] == '.') return false;
      if (!IsAlpha(c) && !IsDigit(c) && kSpecial.find(c) == std::string_view::npos) return false;
    }
  }
  if (domain.front() == '[' && domain.back() == ']') {
    std::string_view literal = domain.substr(1, domain.size() - 2);
    if (literal.starts_with("IPv6:")) return IsIpv6(literal.substr(5));
    return IsIpv4(literal);
  }
  return IsHostname(domain);
}

bool IsJsonPointer(std::string_view s) { return SplitPointer(s).has_value(); }

bool IsRelativeJsonPointer(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && IsDigit(s[i])) ++i;
  if (i == 0 || (i > 1 && s[0] == '0')) return false;
  std::string_view rest = s.substr(i);
  return rest == "#" || IsJsonPointer(rest);
}

}  // namespace

bool IsIpv4(std::string_view s) {
  int parts = 0;
  size_t i = 0;
  while (true) {
    size_t start = i;
    int value = 0;
    while (i < s.size() && IsDigit(s[i]) && i - start < 4) value = value * 10 + (s[i++] - '0');
    size_t len = i - start;
    if (len == 0 || len > 3 || value > 255 || (len > 1 && s[start] == '0')) return false;
    ++parts;
    if (i == s.size()) break;
    if (s[i] != '.' || parts == 4) return false;
    ++i;
  }
  return parts == 4;
}

bool IsIpv6(std::string_view s) {
  size_t dbl = s.find("::");
  if (dbl != std::string_view::npos && s.find("::", dbl + 1) != std::string_view::npos) {
    return false;
  }
  // Counts the 16-bit groups of one side; an IPv4 tail counts as two.
  auto side = [](std::string_view part, bool allow_v4, int* groups) {
    *groups = 0;
    if (part.empty()) return true;
    size_t i = 0;
    while (true) {
      size_t end = part.find(':', i);
      std::string_view group = part.substr(i, end == std::string_view::npos ? part.npos : end - i);
      if (end == std::string_view::npos && allow_v4 && group.find('.') != std::string_view::npos) {
        if (!IsIpv4(group)) return false;
        *groups += 2;
        return true;
      }
      if (group.empty() || group.size() > 4) return false;
      for (char c : group) {
        if (!IsHex(c)) return false;
      }
      ++*groups;
      if (end == std::string_view::npos) return true;
      i = end + 1;
    }
  };
  int left = 0, right = 0;
  if (dbl == std::string_view::npos) {
    return side(s, true, &left) && left == 8;
  }
  if (!side(s.substr(0, dbl), false, &left)) return false;
  if (!side(s.substr(dbl + 2), true, &right)) return false;
  return left + right <= 7;
}

bool IsHostname(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  size_t i = 0;
  while (i <= s.size()) {
    size_t end = s.find('.', i);
    if (end == std::string_view::npos) end = s.size();
    std::string_view label = s.substr(i, end - i);
    if (label.empty() || label.size() > 63) return false;
    if (label.front() == '-' || label.back() == '-') return false;
    for (char c : label) {
      if (!IsAlpha(c) && !IsDigit(c) && c != '-') return false;
    }
    if (label.size() >= 4 && label[2] == '-' && label[3] == '-') {
      bool a_label = (label[0] == 'x' || label[0] == 'X') && (label[1] == 'n' || label[1] == 'N');
      if (!a_label || !IsValidALabel(label)) return false;
    }
    i = end + 1;
  }
  return true;
}

Format FormatFromName(std::string_view name) {
  static constexpr std::pair<std::string_view, Format> kNames[] = {
      {"date-time", Format::kDateTime},
      {"date", Format::kDate},
      {"time", Format::kTime},
      {"duration", Format::kDuration},
      {"email", Format::kEmail},
      {"hostname", Format::kHostname},
      {"ipv4", Format::kIpv4},
      {"ipv6", Format::kIpv6},
      {"uuid", Format::kUuid},
      {"uri", Format::kUri},
      {"uri-reference", Format::kUriReference},
      {"iri", Format::kIri},
      {"iri-reference", Format::kIriReference},
      {"json-pointer", Format::kJsonPointer},
      {"relative-json-pointer", Format::kRelativeJsonPointer},
      {"regex", Format::kRegex},
  };
  for (const auto& [n, f] : kNames) {
    if (n == name) return f;
  }
  return Format::kUnknown;
}

bool CheckFormat(Format format, std::string_view v) {
  switch (format) {
    case Format::kUnknown:
      return true;
    case Format::kDateTime:
      return IsDateTime(v);
    case Format::kDate:
      return IsDate(v);
    case Format::kTime:
      return IsTime(v);
    case Format::kDuration:
      return IsDuration(v);
    case Format::kEmail:
      return IsEmail(v);
    case Format::kHostname:
      return IsHostname(v);
    case Format::kIpv4:
      return IsIpv4(v);
    case Format::kIpv6:
      return IsIpv6(v);
    case Format::kUuid:
      return IsUuid(v);
    case Format::kUri:
      return IsUri(v, true);
    case Format::kUriReference:
      return IsUri(v, false);
    case Format::kIri:
      return IsUri(v, true, /*iri=*/true);
    case Format::kIriReference:
      return IsUri(v, false, /*iri=*/true);
    case Format::kJsonPointer:
      return IsJsonPointer(v);
    case Format::kRelativeJsonPointer:
      return IsRelativeJsonPointer(v);
    case Format::kRegex:
      return IsValidEcmaRegex(v);
  }
  return true;
}

}  // namespace structure::pipeline
