// The note lowering adds to a description when the provider's form cannot take a keyword:
// "<description> Also required (checked after generation): minLength=5; format=\"email\"". The
// model reads it; the client still checks the keyword. Written by lowering (lower_node.cc) and
// read back by the simulator, which must keep those keywords in the answers it makes up.
// Header-only, so a reader need not link the lowering library.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/json.h"

namespace structure::pipeline {

inline constexpr std::string_view kDropNote = " Also required (checked after generation): ";

// `desc` with keyword=value (value as JSON, cut to 120 characters) added to its note.
inline std::string WithDropNote(std::string desc, std::string_view keyword, const Json& value) {
  std::string text = ToJson(value);
  if (text.size() > 120) text = text.substr(0, 117) + "...";
  desc += desc.find(kDropNote) == std::string::npos ? std::string(kDropNote) : std::string("; ");
  desc += std::string(keyword) + "=" + text;
  if (desc.front() == ' ') desc.erase(0, 1);
  return desc;
}

// The value of `keyword` in the note of `desc`: nullopt when the note has no such entry, null
// when it has one whose value was cut.
inline std::optional<Json> DroppedKeyword(std::string_view desc, std::string_view keyword) {
  size_t note = desc.find(kDropNote.substr(1));
  if (note == std::string_view::npos) return std::nullopt;
  std::string needle = std::string(keyword) + "=";
  for (size_t k = desc.find(needle, note); k != std::string_view::npos;
       k = desc.find(needle, k + 1)) {
    if (desc[k - 1] != ' ') continue;  // the start of an entry: after ": " or "; "
    size_t start = k + needle.size();
    // A value may hold "; " itself (a pattern): the entry ends at the first "; " (or the end)
    // before which a whole JSON value stands.
    for (size_t end = desc.find("; ", start);; end = desc.find("; ", end + 1)) {
      std::string_view text =
          desc.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
      if (auto v = ParseJson(text); v.ok()) return std::move(*v);
      if (end == std::string_view::npos) return Json();
    }
  }
  return std::nullopt;
}

}  // namespace structure::pipeline
