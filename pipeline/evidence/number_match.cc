#include "pipeline/evidence/number_match.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "pipeline/evidence/text_tokens.h"

namespace structure::pipeline::evidence {
namespace {

struct NumberWord {
  const char* word;
  int value;
};
constexpr NumberWord kNumberWords[] = {
    {"zero", 0},     {"one", 1},      {"two", 2},        {"three", 3},     {"four", 4},
    {"five", 5},     {"six", 6},      {"seven", 7},      {"eight", 8},     {"nine", 9},
    {"ten", 10},     {"eleven", 11},  {"twelve", 12},    {"thirteen", 13}, {"fourteen", 14},
    {"fifteen", 15}, {"sixteen", 16}, {"seventeen", 17}, {"eighteen", 18}, {"nineteen", 19},
    {"twenty", 20},  {"thirty", 30},  {"forty", 40},     {"fifty", 50},    {"sixty", 60},
    {"seventy", 70}, {"eighty", 80},  {"ninety", 90},    {"hundred", 100}, {"dozen", 12},
    {"eins", 1},     {"zwei", 2},     {"drei", 3},       {"vier", 4},      {"fünf", 5},
    {"sechs", 6},    {"sieben", 7},   {"acht", 8},       {"neun", 9},      {"zehn", 10},
    {"elf", 11},     {"zwölf", 12},
};

double ScaleOf(const Token& t) {
  if (t.kind != Token::Kind::kWord) return 0;
  std::string_view w = t.text;
  if (w == "k" || w == "thousand" || w == "tausend") return 1e3;
  if (w == "m" || w == "mio" || w == "million" || w == "millions" || w == "millionen") return 1e6;
  if (w == "bn" || w == "billion" || w == "billions" || w == "mrd" || w == "milliarde" ||
      w == "milliarden") {
    return 1e9;
  }
  return 0;
}

bool IsSeparator(const Token& t) { return t.is(',') || t.is('.') || t.is('\'') || t.is('_'); }

double Parse(const std::string& integer_digits, const std::string& fraction_digits) {
  std::string s = integer_digits.empty() ? "0" : integer_digits;
  if (!fraction_digits.empty()) s += "." + fraction_digits;
  return std::strtod(s.c_str(), nullptr);
}

// Readings of the digit groups tokens[first..last] (numbers joined by separators).
void Readings(const std::vector<Token>& t, size_t first, size_t last, std::vector<double>& out) {
  std::string all;
  std::string before_last;
  for (size_t k = first; k <= last; ++k) {
    if (!t[k].is_number()) continue;
    if (k == last && k != first) before_last = all;
    all += t[k].text;
  }
  if (all.size() > 30) return;
  double whole = Parse(all, "");
  out.push_back(whole);
  if (last > first && (t[last - 1].is('.') || t[last - 1].is(','))) {
    out.push_back(Parse(before_last, std::string(t[last].text)));
  }
}

}  // namespace

std::vector<double> NumbersIn(std::string_view quote) {
  std::vector<Token> t = Tokenize(quote);
  std::vector<double> out;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind == Token::Kind::kWord) {
      for (const NumberWord& w : kNumberWords) {
        if (t[i].text == w.word) out.push_back(w.value);
      }
      continue;
    }
    if (!t[i].is_number()) continue;
    // The chain of groups starting here: digits, then (separator digits)* without spaces, or a
    // space followed by exactly three digits (a thin or plain space as thousands separator).
    size_t end = i;
    while (true) {
      if (end + 2 < t.size() && IsSeparator(t[end + 1]) && !t[end + 1].space_before &&
          t[end + 2].is_number() && !t[end + 2].space_before) {
        end += 2;
      } else if (end + 1 < t.size() && t[end + 1].is_number() && t[end + 1].space_before &&
                 t[end + 1].text.size() == 3) {
        end += 1;
      } else {
        break;
      }
    }
    // Every sub-chain of at most kMaxGroups groups that starts at a group boundary: "4.2.1"
    // reads 4.2, 2.1, 421, 4, 2, 1, ... (the cap keeps a quote of a long digit chain linear).
    constexpr size_t kMaxGroups = 6;
    std::vector<size_t> groups;
    for (size_t k = i; k <= end; ++k) {
      if (t[k].is_number()) groups.push_back(k);
    }
    size_t before = out.size();
    for (size_t a = 0; a < groups.size(); ++a) {
      for (size_t b = a; b < groups.size() && b < a + kMaxGroups; ++b) {
        Readings(t, groups[a], groups[b], out);
      }
    }
    size_t after = end + 1;
    if (after < t.size()) {
      double scale = ScaleOf(t[after]);
      bool percent = t[after].is('%');
      size_t n = out.size();
      for (size_t k = before; k < n; ++k) {
        if (scale > 0) out.push_back(out[k] * scale);
        if (percent) out.push_back(out[k] / 100);
      }
    }
    i = end;
  }
  return out;
}

bool QuoteStatesNumber(std::string_view quote, double value) {
  double v = std::fabs(value);
  double tolerance = 1e-9 * std::max(1.0, v);
  for (double r : NumbersIn(quote)) {
    if (std::fabs(r - v) <= tolerance) return true;
  }
  return false;
}

}  // namespace structure::pipeline::evidence
