#include "pipeline/evidence/value_match.h"

#include <cstdlib>
#include <vector>

#include "pipeline/evidence/normalize.h"
#include "pipeline/evidence/number_match.h"
#include "pipeline/evidence/text_tokens.h"

namespace structure::pipeline::evidence {
namespace {

std::vector<std::string_view> Words(const std::vector<Token>& tokens) {
  std::vector<std::string_view> out;
  for (const Token& t : tokens) {
    if (t.kind != Token::Kind::kPunct) out.push_back(t.text);
  }
  return out;
}

// The value's words occur in the quote in this order (other words may lie between).
bool WordsInOrder(std::string_view value, std::string_view quote) {
  std::vector<Token> vt = Tokenize(value), qt = Tokenize(quote);
  std::vector<std::string_view> v = Words(vt), q = Words(qt);
  if (v.size() < 2) return false;
  size_t k = 0;
  for (std::string_view w : q) {
    if (k < v.size() && w == v[k]) ++k;
  }
  return k == v.size();
}

// An ISO 4217 code stated by its currency sign ("GBP" by "£").
bool CurrencySign(std::string_view normalized_value, std::string_view quote) {
  struct Sign {
    const char* code;
    const char* sign;
  };
  static constexpr Sign kSigns[] = {{"eur", "€"},   {"usd", "$"}, {"gbp", "£"}, {"jpy", "¥"},
                                    {"cny", "¥"},   {"inr", "₹"}, {"krw", "₩"}, {"chf", "fr."},
                                    {"rub", "₽"}, {"try", "₺"}, {"ils", "₪"}, {"pln", "zł"}};
  for (const Sign& s : kSigns) {
    if (normalized_value == s.code && quote.find(s.sign) != std::string_view::npos) return true;
  }
  return false;
}

std::optional<double> WholeNumber(std::string_view s) {
  std::string text(s);
  if (text.empty() || text.size() > 40) return std::nullopt;
  char* end = nullptr;
  double d = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return d;
}

std::string CheckText(const std::string& value, std::string_view quote) {
  std::string v = NormalizeString(value);
  if (quote.find(v) != std::string_view::npos) return "";
  if (WordsInOrder(v, quote) || CurrencySign(v, quote)) return "";
  if (auto n = WholeNumber(v); n && QuoteStatesNumber(quote, *n)) return "";
  return "which does not contain it";
}

}  // namespace

std::string_view LeafKindName(LeafKind kind) {
  switch (kind) {
    case LeafKind::kText:
      return "text";
    case LeafKind::kNumber:
      return "number";
    case LeafKind::kDateTime:
      return "date-time";
    case LeafKind::kClassification:
      return "classification";
  }
  return "text";
}

std::string CheckValue(const Json& value, LeafKind kind, std::string_view quote,
                       const std::function<const DateContext&()>& context) {
  switch (kind) {
    case LeafKind::kClassification:
      return "";
    case LeafKind::kNumber:
      if (!value.is_number()) break;
      return QuoteStatesNumber(quote, value.as_double()) ? ""
                                                         : "which does not contain this number";
    case LeafKind::kDateTime: {
      if (!value.is_string()) break;
      if (quote.find(NormalizeString(value.as_string())) != std::string_view::npos) return "";
      auto iso = ParseIsoValue(value.as_string());
      if (!iso) break;
      return CheckDateQuote(quote, *iso, context());
    }
    case LeafKind::kText:
      break;
  }
  if (value.is_string()) return CheckText(value.as_string(), quote);
  if (value.is_number()) {
    return QuoteStatesNumber(quote, value.as_double()) ? "" : "which does not contain this number";
  }
  return "";
}

}  // namespace structure::pipeline::evidence
