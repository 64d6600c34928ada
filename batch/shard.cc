#include "batch/shard.h"

#include <charconv>

#include "base/hash.h"
#include "batch/batch_line.h"

namespace structure::batch {

namespace {

bool ParseCount(std::string_view s, uint64_t* out) {
  if (s.empty() || s.size() > 7) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

Result<Shard> ParseShard(std::string_view text) {
  std::string was = " (was '" + std::string(text) + "')";
  size_t slash = text.find('/');
  Shard s;
  if (slash == std::string_view::npos || !ParseCount(text.substr(0, slash), &s.index) ||
      !ParseCount(text.substr(slash + 1), &s.count)) {
    return InvalidArgument("--shard: expected I/N, e.g. 1/3 for the first of three workers" + was);
  }
  if (s.count < 1 || s.count > 1'000'000) {
    return InvalidArgument("--shard: N must be 1..1000000" + was);
  }
  if (s.index < 1 || s.index > s.count) {
    return InvalidArgument("--shard: I must be 1.." + std::to_string(s.count) + was);
  }
  return s;
}

std::string ShardKey(const Json& id, uint64_t line_no) {
  if (id.is_string()) return id.as_string();
  if (id.is_int()) return std::to_string(id.as_int());
  return KeyForLine(line_no);
}

uint64_t ShardOf(std::string_view shard_key, uint64_t count) {
  return count <= 1 ? 1 : Fnv1a64(shard_key) % count + 1;
}

}  // namespace structure::batch
