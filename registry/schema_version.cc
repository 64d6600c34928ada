#include "registry/schema_version.h"

#include <string>

namespace structure::registry {
namespace {

constexpr size_t kMaxDigits = 9;  // keeps every part inside int

// Parses one part; -1 when it is not a plain decimal number.
int ParsePart(std::string_view s) {
  if (s.empty() || s.size() > kMaxDigits) return -1;
  if (s.size() > 1 && s[0] == '0') return -1;
  int value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

std::string Quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s.substr(0, 40)) {
    unsigned char u = static_cast<unsigned char>(c);
    out += (u >= 0x20 && u < 0x7f) ? c : '?';
  }
  if (s.size() > 40) out += "...";
  return out + "\"";
}

}  // namespace

std::string SchemaVersion::ToString() const {
  return std::to_string(major) + "." + std::to_string(minor);
}

Result<SchemaVersion> ParseSchemaVersion(std::string_view text) {
  size_t dot = text.find('.');
  int major = dot == std::string_view::npos ? -1 : ParsePart(text.substr(0, dot));
  int minor = dot == std::string_view::npos ? -1 : ParsePart(text.substr(dot + 1));
  if (major < 0 || minor < 0) {
    return InvalidArgument(
        "version " + Quoted(text) +
        " is not \"MAJOR.MINOR\" (two decimal numbers, e.g. \"1.0\" or \"2.13\")");
  }
  return SchemaVersion{major, minor};
}

Status CheckVersionChange(std::string_view name, const SchemaVersion& from,
                          const SchemaVersion& to) {
  const std::string n(name);
  if (to.major != from.major) {
    return InvalidArgument("schema \"" + n + "\" is at version " + from.ToString() + "; version " +
                           to.ToString() +
                           " changes MAJOR: a breaking change needs a new name, e.g. " + n + "-v" +
                           std::to_string(to.major > from.major ? to.major : from.major + 1));
  }
  if (to < from) {
    return InvalidArgument("schema \"" + n + "\" is at version " + from.ToString() + "; version " +
                           to.ToString() +
                           " would lower it (a minor update must raise MINOR or keep it)");
  }
  return Status::Ok();
}

}  // namespace structure::registry
