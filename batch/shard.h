// `structure batch --shard I/N`: N workers split one input without coordinating. A record belongs
// to shard FNV-1a-64(key) % N + 1, where key is the id's text (a string id's characters, an
// integer id's decimal digits) or "line:N" for a line without a readable id (docs/batch.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/json.h"
#include "base/status.h"

namespace structure::batch {

struct Shard {
  uint64_t index = 1;  // 1..count
  uint64_t count = 1;
};

// Parses "I/N" (1 <= I <= N <= 1 000 000). kInvalidArgument says what is wrong, in flag terms.
Result<Shard> ParseShard(std::string_view text);

// The text that is hashed for a record: the id's characters or digits, else KeyForLine(line_no).
std::string ShardKey(const Json& id, uint64_t line_no);

// 1..count: the shard a record key belongs to.
uint64_t ShardOf(std::string_view shard_key, uint64_t count);

}  // namespace structure::batch
