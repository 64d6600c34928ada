// Does a quote state a date or time value? The value is ISO 8601 ("2026-05-06",
// "2026-05-06T14:30:00+02:00", "14:30"); the quote may state it in any written form date_scan.h
// reads. A relative day ("today", "yesterday", "last Monday") or a date without a year states
// the value only when the input names a date it is relative to (an anchor), or the year.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/evidence/date_scan.h"

namespace structure::pipeline::evidence {

struct IsoValue {
  bool has_date = false;
  int year = 0, month = 0, day = 0;
  bool has_time = false;
  int hour = 0, minute = 0, second = 0;
  std::optional<int> offset_minutes;  // Z = 0; none for a local time
};

// Parses YYYY-MM-DD, YYYY-MM-DD(T| )hh:mm[:ss[.fff]][Z|±hh:mm] or hh:mm[:ss][Z|±hh:mm];
// nullopt for anything else.
std::optional<IsoValue> ParseIsoValue(std::string_view value);

// What the input says about dates as a whole: the full dates it names (anchors for relative
// phrases) and the years it names.
struct DateContext {
  std::vector<DateMention> anchors;  // kFull only
  std::vector<int> years;
};
DateContext ReadDateContext(std::string_view normalized_prompt);

// Days since 1970-01-01 of a proleptic Gregorian date.
long long DaysFromCivil(int year, int month, int day);

// Empty when the normalised quote states the value; else why not, e.g. "which does not state
// this date", "a relative date, but the input names no date it is relative to".
std::string CheckDateQuote(std::string_view normalized_quote, const IsoValue& value,
                           const DateContext& context);

}  // namespace structure::pipeline::evidence
