// The dates and times a normalised text (normalize.h) mentions: calendar dates in the common
// written forms (ISO, 6.5.2026, 5/6/2026 read both ways, "6 May 2026", "May 6th, 2026",
// "6. Mai", 2026年5月6日), relative days ("today", "yesterday", "3 days ago", "gestern"),
// weekdays ("last Monday"), and clock times ("14:30", "2:30 PM", "2 pm", "14h30", "9 Uhr",
// "noon", 3時30分). English and German words.
#pragma once

#include <string_view>
#include <vector>

namespace structure::pipeline::evidence {

struct DateMention {
  enum class Kind {
    kFull,      // year, month, day
    kNoYear,    // month and day; the year comes from the context
    kRelative,  // `offset` days from a date the context names
    kWeekday,   // `weekday` (0 = Sunday) within a week before (direction < 0), after (> 0) or
                // around (0) a date the context names
  };
  Kind kind = Kind::kFull;
  int year = 0, month = 0, day = 0;
  int offset = 0;
  int weekday = 0;
  int direction = 0;
};

struct TimeMention {
  int hour = 0, minute = 0, second = 0;
  bool has_seconds = false;
  bool twelve_hour_unknown = false;  // "at 2:30": may be 02:30 or 14:30
  bool utc = false;                  // followed by UTC, GMT or Z
};

std::vector<DateMention> ScanDates(std::string_view normalized);
std::vector<TimeMention> ScanTimes(std::string_view normalized);

// The four-digit years (1900..2199) a normalised text mentions.
std::vector<int> ScanYears(std::string_view normalized);

}  // namespace structure::pipeline::evidence
