// Wall-clock time as numbers and as text: the one place that reads the clock for Unix
// milliseconds and that writes and reads RFC 3339 times.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace structure {

// Milliseconds since the Unix epoch, from the wall clock (steps when the clock is set; use
// std::chrono::steady_clock for durations).
int64_t UnixNowMs();

// An RFC 3339 UTC time: "2026-11-29T20:00:00Z", or with `nanos` (0..999999999) nine digits of
// fraction, "2026-11-29T20:00:00.000000250Z".
std::string FormatRfc3339(int64_t unix_seconds, std::optional<long> nanos = std::nullopt);

// Unix seconds of a UTC date and time; nullopt when a field is out of range (month 1..12, day
// 1..31, hour 0..23, minute 0..59, second 0..60).
std::optional<int64_t> UnixSecondsOf(int year, int month, int day, int hour, int minute,
                                     int second);

// Unix seconds of an RFC 3339 time, "2026-11-29T20:00:00Z". The fraction and the offset are not
// read (the providers that send these write UTC); nullopt when the date and time do not parse.
std::optional<int64_t> ParseRfc3339(std::string_view text);

}  // namespace structure
