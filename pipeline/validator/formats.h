// The `format` checks the validator asserts: date-time, date, time, duration, email, hostname,
// ipv4, ipv6, uuid, uri, uri-reference, iri, iri-reference, json-pointer,
// relative-json-pointer, regex. Other
// format names are annotations only (kUnknown), as the specification says.
#pragma once

#include <string_view>

namespace structure::pipeline {

enum class Format {
  kUnknown,
  kDateTime,
  kDate,
  kTime,
  kDuration,
  kEmail,
  kHostname,
  kIpv4,
  kIpv6,
  kUuid,
  kUri,
  kUriReference,
  kIri,
  kIriReference,
  kJsonPointer,
  kRelativeJsonPointer,
  kRegex,
};

// kUnknown for names we do not assert.
Format FormatFromName(std::string_view name);

// True when value is valid for format (always true for kUnknown).
bool CheckFormat(Format format, std::string_view value);

bool IsIpv4(std::string_view s);
bool IsIpv6(std::string_view s);
bool IsHostname(std::string_view s);

}  // namespace structure::pipeline
