// Latency distributions for simulated answers: fixed, uniform or log-normal, in milliseconds.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"
#include "sim/rng.h"

namespace structure::sim {

class Latency {
 public:
  enum class Kind { kFixed, kUniform, kLogNormal };

  Latency() = default;  // fixed 0 ms

  // "500" or "fixed:500"; "uniform:MIN,MAX"; "lognormal:MEDIAN,SIGMA" (median in ms, sigma of
  // the underlying normal). kInvalidArgument with the accepted forms otherwise.
  static Result<Latency> Parse(std::string_view spec);
  static Latency Fixed(int ms);

  // One sample in milliseconds, >= 0, capped at 10 minutes.
  int Sample(Rng& rng) const;

  std::string ToString() const;

 private:
  Kind kind_ = Kind::kFixed;
  double a_ = 0;  // fixed value, uniform min, or log-normal median
  double b_ = 0;  // uniform max or log-normal sigma
};

}  // namespace structure::sim
