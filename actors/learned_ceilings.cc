#include "actors/learned_ceilings.h"

#include <algorithm>
#include <charconv>

namespace structure::actors {
namespace {

constexpr auto kRefreshEvery = std::chrono::seconds(10);

// HSET the field to ARGV[2] unless it holds a smaller number already.
const registry::RedisScript kLowerCeiling{
    "local c = redis.call('HGET', KEYS[1], ARGV[1]) "
    "if (not c) or tonumber(c) > tonumber(ARGV[2]) then "
    "redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) return tonumber(ARGV[2]) end "
    "return tonumber(c)"};

}  // namespace

size_t LearnedCeilings::Get(const std::string& model) {
  Refresh();
  std::lock_guard<std::mutex> lock(state_->mu);
  auto it = state_->ceilings.find(model);
  return it == state_->ceilings.end() ? 0 : it->second;
}

size_t LearnedCeilings::Learn(const std::string& model, size_t refused) {
  return Lower(model, refused * 3 / 5);
}

size_t LearnedCeilings::Lower(const std::string& model, size_t limit) {
  size_t ceiling = std::max<size_t>(1, limit);
  std::shared_ptr<registry::RedisClient> shared;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    size_t& have = state_->ceilings[model];
    if (have != 0 && have <= ceiling) return have;
    have = ceiling;
    shared = state_->shared;
  }
  // A lost write only means another process learns the same ceiling itself.
  if (shared)
    shared->Eval(&kLowerCeiling, {shared_key_}, {model, std::to_string(ceiling)},
                 [](Result<registry::RedisReply>) {});
  return ceiling;
}

void LearnedCeilings::UseSharedStore(std::shared_ptr<registry::RedisClient> client) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->shared = std::move(client);
  state_->refreshed = {};
}

void LearnedCeilings::Refresh() {
  std::shared_ptr<registry::RedisClient> shared;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    auto now = std::chrono::steady_clock::now();
    if (!state_->shared || state_->refreshing || now - state_->refreshed < kRefreshEvery) return;
    state_->refreshing = true;
    state_->refreshed = now;
    shared = state_->shared;
  }
  std::shared_ptr<State> state = state_;
  shared->Command({"HGETALL", shared_key_}, [state](Result<registry::RedisReply> reply) {
    std::lock_guard<std::mutex> lock(state->mu);
    state->refreshing = false;
    if (!reply.ok() || reply->type != registry::RedisReply::Type::kArray) return;
    const auto& e = reply->elements;
    for (size_t i = 0; i + 1 < e.size(); i += 2) {
      size_t v = 0;
      const std::string& s = e[i + 1].str;
      if (std::from_chars(s.data(), s.data() + s.size(), v).ec != std::errc() || v == 0) continue;
      size_t& have = state->ceilings[e[i].str];
      if (have == 0 || v < have) have = v;
    }
  });
}

}  // namespace structure::actors
