#include "providers/admission/shared_limit.h"

#include <algorithm>
#include <cstdio>

#include "base/sha256.h"

namespace structure::providers {

// ARGV: 1 µs per request (0: no limit), 2 request capacity, 3 µs per token (0: no limit),
// 4 token capacity, 5 token refund, 6 now µs (0: TIME), 7.. estimated tokens per request.
// A cell holds its TAT; a request fits when the level (capacity - (TAT - now) / interval) covers
// its cost (a cost above the capacity needs a full cell and leaves a debt), as TokenBucket.
// Writes are effects (Redis >= 5 replicates scripts by effect), so TIME is allowed. A cell
// expires 10 s after it is full again (a full cell and no cell read the same).
const std::string_view kAcquireScript = R"lua(
local r_int, r_cap = tonumber(ARGV[1]), tonumber(ARGV[2])
local t_int, t_cap = tonumber(ARGV[3]), tonumber(ARGV[4])
local now = tonumber(ARGV[6])
if now == 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local function tat(key)
  return math.max(now, tonumber(redis.call('GET', key) or 0))
end
local r_tat, t_tat = tat(KEYS[1]), tat(KEYS[2])
if t_int > 0 then t_tat = math.max(now, t_tat - tonumber(ARGV[5]) * t_int) end
local granted, wait = 0, 0
local pause = tonumber(redis.call('GET', KEYS[3]) or 0)
if pause > now then
  wait = pause - now
else
  for i = 7, #ARGV do
    local cost = tonumber(ARGV[i])
    local r_wait, t_wait = 0, 0
    if r_int > 0 then r_wait = r_tat - now - (r_cap - 1) * r_int end
    if t_int > 0 then t_wait = t_tat - now - (t_cap - math.min(cost, t_cap)) * t_int end
    if r_wait > 0 or t_wait > 0 then
      wait = math.max(r_wait, t_wait)
      break
    end
    r_tat = r_tat + r_int
    t_tat = t_tat + cost * t_int
    granted = granted + 1
  end
end
local function store(key, v, int)
  if int <= 0 then return end
  if v > now then
    redis.call('SET', key, string.format('%d', math.ceil(v)), 'PX',
               string.format('%d', math.ceil((v - now) / 1000) + 10000))
  else
    redis.call('DEL', key)
  end
end
store(KEYS[1], r_tat, r_int)
store(KEYS[2], t_tat, t_int)
return {granted, math.ceil(wait)}
)lua";

// ARGV: 1 pause µs, 2 now µs (0: TIME).
const std::string_view kPauseScript = R"lua(
local now = tonumber(ARGV[2])
if now == 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local pause = tonumber(ARGV[1])
local cur = tonumber(redis.call('GET', KEYS[3]) or 0)
if now + pause > cur then
  cur = now + pause
  redis.call('SET', KEYS[3], string.format('%d', cur), 'PX',
             string.format('%d', math.ceil(pause / 1000) + 1))
end
return cur - now
)lua";

namespace {

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

// Interval (µs per unit) and capacity of one limit, as TokenBucket computes them.
std::pair<double, double> Cell(double per_minute, double burst_seconds) {
  if (per_minute <= 0) return {0, 0};
  double per_sec = per_minute / 60.0;
  return {1e6 / per_sec, std::max(1.0, per_sec * std::max(burst_seconds, 0.001))};
}

}  // namespace

SharedLimitKeys SharedKeysFor(const Endpoint& e) {
  std::string id =
      Sha256Hex(std::string(ProviderKindName(e.kind)) + "\n" + e.base_url + "\n" + e.api_key)
          .substr(0, 32);
  std::string base = "structure:limit:{" + id + "}:";
  return {base + "requests", base + "tokens", base + "pause"};
}

std::vector<std::string> SharedKeyList(const SharedLimitKeys& keys) {
  return {keys.requests, keys.tokens, keys.pause};
}

std::vector<std::string> AcquireArgs(const Limits& limits, const AcquireAsk& ask) {
  auto [r_int, r_cap] = Cell(limits.requests_per_minute, limits.burst_seconds);
  auto [t_int, t_cap] = Cell(limits.tokens_per_minute, limits.burst_seconds);
  std::vector<std::string> args = {Num(r_int),
                                   Num(r_cap),
                                   Num(t_int),
                                   Num(t_cap),
                                   std::to_string(ask.token_refund),
                                   std::to_string(ask.now_us)};
  args.reserve(args.size() + ask.est_tokens.size());
  for (int64_t t : ask.est_tokens) args.push_back(std::to_string(std::max<int64_t>(0, t)));
  return args;
}

std::vector<std::string> PauseArgs(Duration pause, int64_t now_us) {
  int64_t us = std::chrono::duration_cast<std::chrono::microseconds>(pause).count();
  return {std::to_string(std::max<int64_t>(1, us)), std::to_string(now_us)};
}

Result<SharedGrant> ParseGrant(const std::vector<int64_t>& reply, size_t asked) {
  if (reply.size() != 2 || reply[0] < 0 || static_cast<uint64_t>(reply[0]) > asked ||
      reply[1] < 0) {
    return Internal("shared limit: unexpected reply from the acquire script");
  }
  SharedGrant g;
  g.granted = static_cast<size_t>(reply[0]);
  g.wait = std::chrono::microseconds(reply[1]);
  return g;
}

}  // namespace structure::providers
