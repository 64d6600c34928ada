// The console's settings in the [server] table (docs/console.md):
//   ui = true                      serve the console at /ui (false: /ui is 404)
//   ui_base = "/structure/"        the path prefix a proxy puts in front of the server
//   keep_prompts = false           keep each recent call's prompt and result (evidence view)
//   recent_calls = 1000            calls in the ring of recent calls (0: none)
//   recent_calls_bytes = 67108864  bound on the prompts and results kept
//   records_days = 30              with a PostgreSQL database: call records kept this long
//   records_rows = 1000000         ... and at most this many (the whole fleet's)
//   [server.prices."provider/model"] input, cached_input, cache_write, output
//                                  USD per million tokens; none are built in
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "structure/status.h"

namespace structure::server {

// USD per million tokens. Cached input and cache writes cost `input` when not given (< 0).
struct ModelPrice {
  double input = 0;
  double cached_input = -1;
  double cache_write = -1;
  double output = 0;
};

struct ConsoleSettings {
  bool ui = true;
  std::string ui_base = "/";  // always starts and ends with '/'
  bool keep_prompts = false;
  size_t recent_calls = 1000;
  size_t recent_bytes = 64 * 1024 * 1024;
  int64_t records_days = 30;
  int64_t records_rows = 1000000;
  std::map<std::string, ModelPrice> prices;  // by "provider/model"
};

// "/structure" or "structure/" -> "/structure/"; kInvalidArgument for a prefix that is not a
// plain path ("?", "#", "..", spaces, control characters).
Result<std::string> NormalizeUiBase(std::string_view base);

}  // namespace structure::server
