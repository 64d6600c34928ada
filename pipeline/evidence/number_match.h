// Does a quote state a number? The numbers a normalised quote can be read as: digit groups with
// the common separators ("1,234.50", "1.234,50", "1 234", "1'234"), a decimal comma, a
// percentage ("15%" also reads 0.15), a scale word ("2.5 million", "3k"), and the number words
// zero to twenty, the tens, "hundred", "dozen" (English) and eins to zwölf (German). Signs are
// not compared: the check is that the digits are in the text.
#pragma once

#include <string_view>
#include <vector>

namespace structure::pipeline::evidence {

// Every reading of every number in `normalized_quote` (normalize.h).
std::vector<double> NumbersIn(std::string_view normalized_quote);

// True when `value` (its absolute value) is one of the readings of the quote.
bool QuoteStatesNumber(std::string_view normalized_quote, double value);

}  // namespace structure::pipeline::evidence
