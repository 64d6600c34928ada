#include "pipeline/evidence/date_scan.h"

#include "pipeline/evidence/text_tokens.h"

namespace structure::pipeline::evidence {
namespace {

struct Named {
  const char* word;
  int value;
};

constexpr Named kMonths[] = {
    {"january", 1},   {"jan", 1},       {"januar", 1},   {"jänner", 1},    {"february", 2},
    {"feb", 2},       {"februar", 2},   {"march", 3},    {"mar", 3},       {"märz", 3},
    {"mär", 3},       {"mrz", 3},       {"april", 4},    {"apr", 4},       {"may", 5},
    {"mai", 5},       {"june", 6},      {"jun", 6},      {"juni", 6},      {"july", 7},
    {"jul", 7},       {"juli", 7},      {"august", 8},   {"aug", 8},       {"september", 9},
    {"sep", 9},       {"sept", 9},      {"october", 10}, {"oct", 10},      {"oktober", 10},
    {"okt", 10},      {"november", 11}, {"nov", 11},     {"december", 12}, {"dec", 12},
    {"dezember", 12}, {"dez", 12},
};

constexpr Named kWeekdays[] = {
    {"sunday", 0},    {"sun", 0},        {"sonntag", 0},  {"monday", 1},    {"mon", 1},
    {"montag", 1},    {"tuesday", 2},    {"tue", 2},      {"tues", 2},      {"dienstag", 2},
    {"wednesday", 3}, {"wed", 3},        {"mittwoch", 3}, {"thursday", 4},  {"thu", 4},
    {"thurs", 4},     {"donnerstag", 4}, {"friday", 5},   {"fri", 5},       {"freitag", 5},
    {"saturday", 6},  {"sat", 6},        {"samstag", 6},  {"sonnabend", 6},
};

int Lookup(const Named* table, size_t n, const Token& t) {
  if (t.kind != Token::Kind::kWord) return -1;
  for (size_t i = 0; i < n; ++i) {
    if (t.text == table[i].word) return table[i].value;
  }
  return -1;
}
int Month(const Token& t) { return Lookup(kMonths, std::size(kMonths), t); }
int Weekday(const Token& t) { return Lookup(kWeekdays, std::size(kWeekdays), t); }

// A number token of 1..max_digits digits, or -1.
int Num(const std::vector<Token>& t, size_t i, size_t max_digits = 2) {
  if (i >= t.size() || !t[i].is_number() || t[i].text.size() > max_digits) return -1;
  return static_cast<int>(DigitsValue(t[i].text));
}
bool Punct(const std::vector<Token>& t, size_t i, char c) {
  return i < t.size() && t[i].is(c) && !t[i].space_before;
}
bool Word(const std::vector<Token>& t, size_t i, std::string_view w) {
  return i < t.size() && t[i].is_word(w);
}
bool Ordinal(const Token& t) {
  return !t.space_before &&
         (t.is_word("st") || t.is_word("nd") || t.is_word("rd") || t.is_word("th"));
}

bool ValidDay(int m, int d) { return m >= 1 && m <= 12 && d >= 1 && d <= 31; }
int FullYear(const Token& t) {
  int y = static_cast<int>(DigitsValue(t.text));
  return t.text.size() == 2 ? 2000 + y : y;
}

void AddFull(std::vector<DateMention>& out, int y, int m, int d) {
  if (!ValidDay(m, d) || y < 1 || y > 9999) return;
  DateMention dm;
  dm.kind = DateMention::Kind::kFull;
  dm.year = y, dm.month = m, dm.day = d;
  out.push_back(dm);
}

// A year after a month name or a day: [","] N4. Advances i past it.
int OptionalYear(const std::vector<Token>& t, size_t& i) {
  size_t k = i;
  if (k < t.size() && t[k].is(',')) ++k;
  if (k < t.size() && t[k].is_number() && t[k].text.size() == 4) {
    i = k + 1;
    return static_cast<int>(DigitsValue(t[k].text));
  }
  return 0;
}

void AddNamed(std::vector<DateMention>& out, int y, int m, int d) {
  if (!ValidDay(m, d)) return;
  if (y > 0) return AddFull(out, y, m, d);
  DateMention dm;
  dm.kind = DateMention::Kind::kNoYear;
  dm.month = m, dm.day = d;
  out.push_back(dm);
}

void AddRelative(std::vector<DateMention>& out, int offset) {
  DateMention dm;
  dm.kind = DateMention::Kind::kRelative;
  dm.offset = offset;
  out.push_back(dm);
}

// A count before "days ago": digits or a small number word.
int Count(const Token& t) {
  if (t.is_number() && t.text.size() <= 3) return static_cast<int>(DigitsValue(t.text));
  static constexpr Named kWords[] = {{"a", 1},    {"one", 1},  {"two", 2},  {"three", 3},
                                     {"four", 4}, {"five", 5}, {"six", 6},  {"seven", 7},
                                     {"ten", 10}, {"zwei", 2}, {"drei", 3}, {"einem", 1}};
  return Lookup(kWords, std::size(kWords), t);
}

// Relative phrases starting at i; returns the tokens consumed (0 when none).
size_t Relative(const std::vector<Token>& t, size_t i, std::vector<DateMention>& out) {
  auto w = [&](size_t k, std::string_view s) { return Word(t, i + k, s); };
  if (w(0, "day") && w(1, "before") && w(2, "yesterday")) return AddRelative(out, -2), 3;
  if (w(0, "day") && w(1, "after") && w(2, "tomorrow")) return AddRelative(out, 2), 3;
  if (w(0, "vorgestern")) return AddRelative(out, -2), 1;
  if (w(0, "übermorgen")) return AddRelative(out, 2), 1;
  if (w(0, "heute") && w(1, "morgen")) return AddRelative(out, 0), 2;
  if (w(0, "today") || w(0, "tonight") || w(0, "heute") || w(0, "now") ||
      (w(0, "this") && (w(1, "morning") || w(1, "afternoon") || w(1, "evening")))) {
    return AddRelative(out, 0), 1;
  }
  if (w(0, "yesterday") || w(0, "gestern") || (w(0, "last") && w(1, "night"))) {
    return AddRelative(out, -1), 1;
  }
  if (w(0, "tomorrow") || w(0, "morgen")) return AddRelative(out, 1), 1;
  if (i + 2 < t.size() && Count(t[i]) >= 0) {
    int n = Count(t[i]);
    bool days = w(1, "day") || w(1, "days"), weeks = w(1, "week") || w(1, "weeks");
    if ((days || weeks) && w(2, "ago")) return AddRelative(out, -(weeks ? 7 : 1) * n), 3;
  }
  if (w(0, "in") && i + 2 < t.size() && Count(t[i + 1]) >= 0 && (w(2, "day") || w(2, "days"))) {
    return AddRelative(out, Count(t[i + 1])), 3;
  }
  if (w(0, "vor") && i + 2 < t.size() && Count(t[i + 1]) >= 0 && (w(2, "tagen") || w(2, "tag"))) {
    return AddRelative(out, -Count(t[i + 1])), 3;
  }
  int wd = Weekday(t[i]);
  if (wd >= 0) {
    DateMention dm;
    dm.kind = DateMention::Kind::kWeekday;
    dm.weekday = wd;
    if (i > 0 &&
        (t[i - 1].is_word("last") || t[i - 1].is_word("letzten") || t[i - 1].is_word("letzte")))
      dm.direction = -1;
    if (i > 0 &&
        (t[i - 1].is_word("next") || t[i - 1].is_word("nächsten") || t[i - 1].is_word("kommenden")))
      dm.direction = 1;
    out.push_back(dm);
    return 1;
  }
  return 0;
}

}  // namespace

std::vector<DateMention> ScanDates(std::string_view normalized) {
  std::vector<Token> t = Tokenize(normalized);
  std::vector<DateMention> out;
  for (size_t i = 0; i < t.size(); ++i) {
    // 2026-05-06, 2026/05/06, 2026.05.06
    if (t[i].is_number() && t[i].text.size() == 4 && i + 4 < t.size()) {
      for (char sep : {'-', '/', '.'}) {
        if (Punct(t, i + 1, sep) && Num(t, i + 2) >= 0 && Punct(t, i + 3, sep) &&
            Num(t, i + 4) >= 0) {
          AddFull(out, FullYear(t[i]), Num(t, i + 2), Num(t, i + 4));
        }
      }
    }
    // 2026年5月6日 and 5月6日
    if (Num(t, i, 4) >= 0 && Word(t, i + 1, "年") && Num(t, i + 2) >= 0 && Word(t, i + 3, "月") &&
        Num(t, i + 4) >= 0 && Word(t, i + 5, "日")) {
      AddFull(out, Num(t, i, 4), Num(t, i + 2), Num(t, i + 4));
      i += 5;
      continue;
    }
    if (Num(t, i) >= 0 && Word(t, i + 1, "月") && Num(t, i + 2) >= 0 && Word(t, i + 3, "日")) {
      AddNamed(out, 0, Num(t, i), Num(t, i + 2));
      i += 3;
      continue;
    }
    int a = Num(t, i);
    if (a >= 0) {
      // 6.5.2026, 06.05.26, 5/6/2026 (both readings), 06-05-2026 (both readings)
      for (char sep : {'.', '/', '-'}) {
        int b = Num(t, i + 2);
        if (Punct(t, i + 1, sep) && b >= 0 && Punct(t, i + 3, sep) && i + 4 < t.size() &&
            t[i + 4].is_number() && !t[i + 4].space_before &&
            (t[i + 4].text.size() == 2 || t[i + 4].text.size() == 4)) {
          int y = FullYear(t[i + 4]);
          AddFull(out, y, b, a);
          if (sep != '.') AddFull(out, y, a, b);
        }
      }
      // 6 May 2026, 6th of May, 6. Mai 2026
      size_t k = i + 1;
      if (k < t.size() && Ordinal(t[k])) ++k;
      if (Punct(t, k, '.')) ++k;
      if (Word(t, k, "of")) ++k;
      if (k < t.size() && Month(t[k]) > 0) {
        int m = Month(t[k]);
        size_t after = k + 1;
        if (Punct(t, after, '.')) ++after;
        int y = OptionalYear(t, after);
        AddNamed(out, y, m, a);
        i = after - 1;
        continue;
      }
    }
    // May 6, 2026; May 6th 2026; Mai 6
    int m = Month(t[i]);
    if (m > 0) {
      size_t k = i + 1;
      if (Punct(t, k, '.')) ++k;
      int d = Num(t, k);
      if (d >= 0) {
        size_t after = k + 1;
        if (after < t.size() && Ordinal(t[after])) ++after;
        int y = OptionalYear(t, after);
        AddNamed(out, y, m, d);
        i = after - 1;
        continue;
      }
    }
    size_t used = Relative(t, i, out);
    if (used > 0) i += used - 1;
  }
  return out;
}

std::vector<TimeMention> ScanTimes(std::string_view normalized) {
  std::vector<Token> t = Tokenize(normalized);
  std::vector<TimeMention> out;
  for (size_t i = 0; i < t.size(); ++i) {
    TimeMention tm;
    size_t end = i;  // the last token of the time
    if (t[i].is_word("noon") || t[i].is_word("midday") || t[i].is_word("mittag")) {
      tm.hour = 12;
    } else if (t[i].is_word("midnight") || t[i].is_word("mitternacht")) {
      tm.hour = 0;
    } else {
      int h = Num(t, i);
      if (h < 0 || (i > 0 && (t[i - 1].is(':') || t[i - 1].is('.')) && !t[i].space_before))
        continue;
      int mm = -1;
      bool marked = false;  // a colon, an hour letter or a unit says this number is a time
      if (Punct(t, i + 1, ':') && Num(t, i + 2) >= 0 && t[i + 2].text.size() == 2) {
        mm = Num(t, i + 2), end = i + 2, marked = true;
        if (Punct(t, i + 3, ':') && Num(t, i + 4) >= 0 && t[i + 4].text.size() == 2) {
          tm.second = Num(t, i + 4), tm.has_seconds = true, end = i + 4;
        }
      } else if (Punct(t, i + 1, '.') && Num(t, i + 2) >= 0 && t[i + 2].text.size() == 2) {
        mm = Num(t, i + 2), end = i + 2;  // 14.30 needs "Uhr", am or pm after it
      } else if (i + 1 < t.size() && !t[i + 1].space_before &&
                 (t[i + 1].is_word("h") || t[i + 1].is_word("時") || t[i + 1].is_word("时") ||
                  t[i + 1].is_word("点"))) {
        mm = 0, end = i + 1, marked = true;
        if (Num(t, i + 2) >= 0 && !t[i + 2].space_before) {
          mm = Num(t, i + 2), end = i + 2;
          if (Word(t, i + 3, "分")) end = i + 3;
        }
      }
      int half = 0;  // 1 am, 2 pm
      size_t k = end + 1;
      if (Word(t, k, "am") || Word(t, k, "pm")) {
        half = t[k].text == "am" ? 1 : 2, end = k;
      } else if ((Word(t, k, "a") || Word(t, k, "p")) && Punct(t, k + 1, '.') &&
                 Word(t, k + 2, "m")) {
        half = t[k].text == "a" ? 1 : 2, end = Punct(t, k + 3, '.') ? k + 3 : k + 2;
      } else if (Word(t, k, "uhr")) {
        marked = true, end = k;
      }
      if (mm < 0) mm = 0;
      if (!marked && half == 0) continue;
      if (mm > 59 || h > 24 || (half != 0 && (h < 1 || h > 12))) continue;
      tm.hour = h % 24, tm.minute = mm;
      if (half == 2 && h != 12) tm.hour = h + 12;
      if (half == 1 && h == 12) tm.hour = 0;
      tm.twelve_hour_unknown = half == 0 && h >= 1 && h <= 12 && !Word(t, end, "uhr");
    }
    for (size_t k = end + 1; k < t.size() && k <= end + 3; ++k) {
      if (t[k].is_word("utc") || t[k].is_word("gmt") || t[k].is_word("z")) tm.utc = true;
    }
    out.push_back(tm);
    i = end;
  }
  return out;
}

std::vector<int> ScanYears(std::string_view normalized) {
  std::vector<int> out;
  for (const Token& t : Tokenize(normalized)) {
    if (!t.is_number() || t.text.size() != 4) continue;
    int y = static_cast<int>(DigitsValue(t.text));
    if (y >= 1900 && y <= 2199) out.push_back(y);
  }
  return out;
}

}  // namespace structure::pipeline::evidence
