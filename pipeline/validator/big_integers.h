// Internal: instance integers beyond 64 bits. simdjson holds integers in int64/uint64 only:
// it refuses larger ones and reads negative ones below INT64_MIN as the nearest double. Before
// such an instance is parsed, each of those integers is replaced by a double that stands for
// it (its nearest double, moved by one step when another value of the instance already has
// that double), and its exact decimal text is kept in a table; while the instance is
// validated, the table is installed for this thread, so exact comparisons and messages read
// the real digits.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace structure::pipeline::validator_internal {

using BigIntegerTable = std::vector<std::pair<double, std::string>>;  // stand-in -> exact text

// True when text may hold an integer token simdjson cannot keep exactly without refusing it:
// a '-' followed by 19 or more digits (a cheap test; strings may match too).
bool MayHoldBigNegativeInteger(std::string_view text);

// The instance text with its big integers replaced by their stand-ins; "" when it has none.
std::string WidenBigIntegers(std::string_view text, BigIntegerTable* table);

// Installs table for this thread for the scope's lifetime.
class BigIntegerScope {
 public:
  explicit BigIntegerScope(const BigIntegerTable* table);
  ~BigIntegerScope();
  BigIntegerScope(const BigIntegerScope&) = delete;
  BigIntegerScope& operator=(const BigIntegerScope&) = delete;

 private:
  const BigIntegerTable* previous_;
};

// The exact text of the big integer that d stands for in the current instance, or nullptr.
const std::string* ExactBigInteger(double d);

// The nearest double of the big integer that d stands for (d itself when it stands for none),
// so that ordering against bounds holds even for a stand-in moved off its nearest double.
double NearestDouble(double d);

}  // namespace structure::pipeline::validator_internal
