#include "pipeline/evidence/date_match.h"

#include <algorithm>

namespace structure::pipeline::evidence {
namespace {

bool Digits(std::string_view s, size_t at, size_t n, int* out) {
  if (at + n > s.size()) return false;
  int v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

// hh:mm[:ss[.fff]][Z|±hh:mm] from s[at]; true when it is all of the rest of s.
bool ParseTime(std::string_view s, size_t at, IsoValue* v) {
  if (!Digits(s, at, 2, &v->hour) || at + 2 >= s.size() || s[at + 2] != ':' ||
      !Digits(s, at + 3, 2, &v->minute)) {
    return false;
  }
  size_t i = at + 5;
  if (i < s.size() && s[i] == ':') {
    if (!Digits(s, i + 1, 2, &v->second)) return false;
    i += 3;
    if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
      ++i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    }
  }
  if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
    v->offset_minutes = 0;
    ++i;
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    int oh = 0, om = 0;
    if (!Digits(s, i + 1, 2, &oh)) return false;
    size_t k = i + 3;
    if (k < s.size() && s[k] == ':') ++k;
    if (!Digits(s, k, 2, &om)) return false;
    v->offset_minutes = (s[i] == '-' ? -1 : 1) * (oh * 60 + om);
    i = k + 2;
  }
  v->has_time = true;
  return i == s.size() && v->hour <= 24 && v->minute <= 59 && v->second <= 60;
}

int WeekdayOf(long long days) { return static_cast<int>(((days % 7) + 11) % 7); }

bool SameClock(const TimeMention& t, int h, int m, int s) {
  bool hour = t.hour == h || (t.twelve_hour_unknown && t.hour + 12 == h);
  bool seconds = (s == 0 && !t.has_seconds) || t.second == s;
  return hour && t.minute == m && seconds;
}

}  // namespace

long long DaysFromCivil(int year, int month, int day) {
  long long y = year - (month <= 2 ? 1 : 0);
  long long era = (y >= 0 ? y : y - 399) / 400;
  long long yoe = y - era * 400;
  long long doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

std::optional<IsoValue> ParseIsoValue(std::string_view s) {
  IsoValue v;
  if (s.size() >= 10 && s[4] == '-' && s[7] == '-') {
    if (!Digits(s, 0, 4, &v.year) || !Digits(s, 5, 2, &v.month) || !Digits(s, 8, 2, &v.day)) {
      return std::nullopt;
    }
    if (v.month < 1 || v.month > 12 || v.day < 1 || v.day > 31) return std::nullopt;
    v.has_date = true;
    if (s.size() == 10) return v;
    if (s[10] != 'T' && s[10] != 't' && s[10] != ' ') return std::nullopt;
    if (!ParseTime(s, 11, &v)) return std::nullopt;
    return v;
  }
  if (s.size() >= 5 && ParseTime(s, 0, &v)) return v;
  return std::nullopt;
}

DateContext ReadDateContext(std::string_view normalized_prompt) {
  DateContext c;
  for (const DateMention& m : ScanDates(normalized_prompt)) {
    if (m.kind == DateMention::Kind::kFull) c.anchors.push_back(m);
  }
  c.years = ScanYears(normalized_prompt);
  return c;
}

std::string CheckDateQuote(std::string_view quote, const IsoValue& value,
                           const DateContext& context) {
  if (value.has_date) {
    long long v = DaysFromCivil(value.year, value.month, value.day);
    bool ok = false, no_anchor = false, no_year = false;
    for (const DateMention& m : ScanDates(quote)) {
      switch (m.kind) {
        case DateMention::Kind::kFull:
          ok = ok || (m.year == value.year && m.month == value.month && m.day == value.day);
          break;
        case DateMention::Kind::kNoYear:
          if (m.month != value.month || m.day != value.day) break;
          if (std::count(context.years.begin(), context.years.end(), value.year) > 0) {
            ok = true;
          } else {
            no_year = true;
          }
          break;
        case DateMention::Kind::kRelative:
        case DateMention::Kind::kWeekday:
          if (m.kind == DateMention::Kind::kWeekday && WeekdayOf(v) != m.weekday) break;
          if (context.anchors.empty()) no_anchor = true;
          for (const DateMention& a : context.anchors) {
            long long diff = v - DaysFromCivil(a.year, a.month, a.day);
            if (m.kind == DateMention::Kind::kRelative) {
              ok = ok || diff == m.offset;
            } else if (m.direction < 0) {
              ok = ok || (diff >= -7 && diff <= -1);
            } else if (m.direction > 0) {
              ok = ok || (diff >= 1 && diff <= 7);
            } else {
              ok = ok || (diff >= -7 && diff <= 7);
            }
          }
          break;
      }
    }
    if (!ok) {
      if (no_anchor) return "a relative date, but the input names no date it is relative to";
      if (no_year) return "a date without a year, and the input names no year";
      return "which does not state this date";
    }
  }
  if (value.has_time) {
    std::vector<TimeMention> times = ScanTimes(quote);
    bool midnight = value.hour == 0 && value.minute == 0 && value.second == 0;
    bool ok = times.empty() && midnight && value.has_date;  // a date-only value written in full
    for (const TimeMention& t : times) {
      ok = ok || SameClock(t, value.hour, value.minute, value.second);
      if (t.utc && value.offset_minutes) {
        int local = value.hour * 60 + value.minute - *value.offset_minutes;
        int utc = ((local % 1440) + 1440) % 1440;
        ok = ok || SameClock(t, utc / 60, utc % 60, value.second);
      }
    }
    if (!ok) return "which does not state this time";
  }
  return "";
}

}  // namespace structure::pipeline::evidence
