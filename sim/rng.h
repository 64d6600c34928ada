// Deterministic randomness for the simulator: every decision for a request draws from an Rng
// seeded by (--seed, request bytes, repeat count), so runs replay exactly under --seed.
#pragma once

#include <cmath>
#include <cstdint>
#include <string_view>

namespace structure::sim {

// SplitMix64: tiny, fast, good enough for fault dice and latency samples.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n); n must be > 0.
  uint64_t Below(uint64_t n) { return Next() % n; }
  // Standard normal (Box-Muller).
  double Normal() {
    double u1 = Uniform();
    double u2 = Uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  uint64_t state_;
};

inline uint64_t MixSeed(uint64_t a, uint64_t b) {
  Rng r(a ^ (b * 0x9e3779b97f4a7c15ULL));
  return r.Next();
}

}  // namespace structure::sim
