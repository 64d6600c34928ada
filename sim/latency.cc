#include "sim/latency.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace structure::sim {
namespace {

bool ToDouble(std::string_view s, double* out) {
  std::string copy(s);
  char* end = nullptr;
  *out = std::strtod(copy.c_str(), &end);
  // At most an hour: a longer latency is a typo, and would overflow the int milliseconds.
  return !copy.empty() && end == copy.c_str() + copy.size() && std::isfinite(*out) && *out >= 0 &&
         *out <= 3.6e6;
}

Status Usage(std::string_view spec) {
  return InvalidArgument("bad latency '" + std::string(spec) +
                         "': use MS, fixed:MS, uniform:MIN,MAX or lognormal:MEDIAN,SIGMA");
}

}  // namespace

Latency Latency::Fixed(int ms) {
  Latency l;
  l.a_ = std::max(0, ms);
  return l;
}

Result<Latency> Latency::Parse(std::string_view spec) {
  Latency l;
  size_t colon = spec.find(':');
  std::string_view kind = colon == std::string_view::npos ? "fixed" : spec.substr(0, colon);
  std::string_view args = colon == std::string_view::npos ? spec : spec.substr(colon + 1);
  size_t comma = args.find(',');
  if (kind == "fixed") {
    if (comma != std::string_view::npos || !ToDouble(args, &l.a_)) return Usage(spec);
    return l;
  }
  if (comma == std::string_view::npos || !ToDouble(args.substr(0, comma), &l.a_) ||
      !ToDouble(args.substr(comma + 1), &l.b_)) {
    return Usage(spec);
  }
  if (kind == "uniform") {
    if (l.b_ < l.a_) return Usage(spec);
    l.kind_ = Kind::kUniform;
  } else if (kind == "lognormal") {
    if (l.a_ <= 0) return Usage(spec);
    l.kind_ = Kind::kLogNormal;
  } else {
    return Usage(spec);
  }
  return l;
}

int Latency::Sample(Rng& rng) const {
  double ms = a_;
  switch (kind_) {
    case Kind::kFixed:
      break;
    case Kind::kUniform:
      ms = a_ + (b_ - a_) * rng.Uniform();
      break;
    case Kind::kLogNormal:
      ms = a_ * std::exp(b_ * rng.Normal());
      break;
  }
  return static_cast<int>(std::clamp(ms, 0.0, 600000.0));
}

std::string Latency::ToString() const {
  auto n = [](double v) { return std::to_string(static_cast<int64_t>(v)); };
  switch (kind_) {
    case Kind::kFixed:
      return "fixed:" + n(a_);
    case Kind::kUniform:
      return "uniform:" + n(a_) + "," + n(b_);
    case Kind::kLogNormal:
      return "lognormal:" + n(a_) + "," + std::to_string(b_);
  }
  return "";
}

}  // namespace structure::sim
