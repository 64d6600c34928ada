// The steady part of a benchmark run, shared by bench_pool and the throughput harness.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace structure::bench {

// Completion counts that bound the steady window of a run of `total` completions. With a fixed
// latency calls complete in waves of `wave` (the calls in flight), so the window runs from the
// end of the wave holding 10 % of the completions to the end of the wave holding 90 %: both
// ends sit at the same phase of a wave (a window cut at arbitrary counts also spans part of a
// wave's gap and under-reports by up to one wave). With fewer than three waves: the plain 10 %
// and 90 % marks.
struct SteadyWindow {
  long lo = 0;
  long hi = 0;
};

inline SteadyWindow SteadyWindowOf(long total, long wave) {
  long waves = wave > 0 ? total / wave : 0;
  SteadyWindow w;
  w.lo = wave * std::max(1L, std::lround(0.1 * static_cast<double>(waves)));
  w.hi = wave * std::lround(0.9 * static_cast<double>(waves));
  if (waves < 3 || w.hi <= w.lo) w.lo = total / 10, w.hi = total * 9 / 10;
  return w;
}

// Completions per second over the steady window of a run whose completion times (seconds
// since its start, in order) are `done_s`; 0 when the run is too short to have one.
inline double SteadyRateOf(const std::vector<double>& done_s, long wave) {
  long n = static_cast<long>(done_s.size());
  auto [lo, hi] = SteadyWindowOf(n, wave);
  if (lo == 0 || hi <= lo || hi > n || done_s[hi - 1] <= done_s[lo - 1]) return 0;
  return static_cast<double>(hi - lo) / (done_s[hi - 1] - done_s[lo - 1]);
}

}  // namespace structure::bench
