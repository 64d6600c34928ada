#include "pipeline/validator/big_integers.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace structure::pipeline::validator_internal {
namespace {

thread_local const BigIntegerTable* current_table = nullptr;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

struct Token {
  size_t begin, end;  // the integer's text, sign included
  bool big;
};

// Number tokens outside strings, in order.
std::vector<Token> NumberTokens(std::string_view text) {
  std::vector<Token> out;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (c != '-' && !IsDigit(c)) continue;
    size_t start = i + (c == '-');
    size_t end = start;
    while (end < text.size() && IsDigit(text[end])) ++end;
    bool fraction = end < text.size() && (text[end] == '.' || text[end] == 'e' || text[end] == 'E');
    if (fraction) {
      while (end < text.size() &&
             std::string_view("0123456789.eE+-").find(text[end]) != std::string_view::npos)
        ++end;
    }
    std::string_view digits = text.substr(start, end - start);
    std::string_view limit = c == '-' ? "9223372036854775808" : "18446744073709551615";
    bool big = !fraction && !digits.empty() && digits[0] != '0' &&
               (digits.size() > limit.size() || (digits.size() == limit.size() && digits > limit));
    out.push_back({i, end, big});
    i = end > i ? end - 1 : i;
  }
  return out;
}

double ToDouble(std::string_view token) { return std::strtod(std::string(token).c_str(), nullptr); }

}  // namespace

bool MayHoldBigNegativeInteger(std::string_view text) {
  for (size_t i = text.find('-'); i != std::string_view::npos; i = text.find('-', i + 1)) {
    size_t j = i + 1;
    while (j < text.size() && IsDigit(text[j])) ++j;
    if (j - i - 1 >= 19) return true;
  }
  return false;
}

std::string WidenBigIntegers(std::string_view text, BigIntegerTable* table) {
  std::vector<Token> tokens = NumberTokens(text);
  std::set<double> taken;  // doubles of the instance's other numbers, then of stand-ins
  bool any = false;
  for (const Token& t : tokens) {
    if (t.big)
      any = true;
    else
      taken.insert(ToDouble(text.substr(t.begin, t.end - t.begin)));
  }
  if (!any) return "";
  std::string out;
  size_t copied = 0;
  for (const Token& t : tokens) {
    if (!t.big) continue;
    std::string exact(text.substr(t.begin, t.end - t.begin));
    double stand_in = 0;
    bool known = false;
    for (const auto& [d, e] : *table) {
      if (e == exact) {
        stand_in = d;
        known = true;
        break;
      }
    }
    if (!known) {
      stand_in = ToDouble(exact);
      if (!std::isfinite(stand_in)) stand_in = std::copysign(DBL_MAX, stand_in);  // past 1e308
      while (taken.count(stand_in)) stand_in = std::nextafter(stand_in, 0.0);
      taken.insert(stand_in);
      table->emplace_back(stand_in, exact);
    }
    char buf[40];
    std::snprintf(buf, sizeof(buf), "%.17g", stand_in);
    out.append(text.substr(copied, t.begin - copied));
    out += buf;
    copied = t.end;
  }
  out.append(text.substr(copied));
  return out;
}

BigIntegerScope::BigIntegerScope(const BigIntegerTable* table) : previous_(current_table) {
  current_table = table;
}

BigIntegerScope::~BigIntegerScope() { current_table = previous_; }

const std::string* ExactBigInteger(double d) {
  if (current_table == nullptr || std::fabs(d) < 9.2e18) return nullptr;
  for (const auto& [stand_in, exact] : *current_table) {
    if (stand_in == d) return &exact;
  }
  return nullptr;
}

}  // namespace structure::pipeline::validator_internal

namespace structure::pipeline::validator_internal {

double NearestDouble(double d) {
  const std::string* exact = ExactBigInteger(d);
  if (exact == nullptr) return d;
  double v = ToDouble(*exact);
  return std::isfinite(v) ? v : std::copysign(DBL_MAX, v);
}

}  // namespace structure::pipeline::validator_internal
