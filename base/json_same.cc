#include "base/json_same.h"

#include <cmath>

namespace structure {

bool SameJsonText(const Json& a, const Json& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case Json::Type::kNull:
      return true;
    case Json::Type::kBool:
      return a.as_bool() == b.as_bool();
    case Json::Type::kInt:
      return a.as_int() == b.as_int();
    case Json::Type::kDouble: {
      // Written from the big integer's digits when there are some, else from the value.
      if (a.big_integer() != b.big_integer()) return false;
      double x = a.as_double(), y = b.as_double();
      return !a.big_integer().empty() || (x == y && std::signbit(x) == std::signbit(y)) ||
             (!std::isfinite(x) && !std::isfinite(y));
    }
    case Json::Type::kString:
      return a.as_string() == b.as_string();
    case Json::Type::kArray: {
      const auto &x = a.as_array(), &y = b.as_array();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (!SameJsonText(x[i], y[i])) return false;
      }
      return true;
    }
    case Json::Type::kObject: {
      const auto &x = a.as_object(), &y = b.as_object();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (x[i].first != y[i].first || !SameJsonText(x[i].second, y[i].second)) return false;
      }
      return true;
    }
  }
  return false;
}

}  // namespace structure
