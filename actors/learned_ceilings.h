// What the engine learned of a limit of each model that the provider states only by refusing:
//   - the grammar budget: a provider refused a schema of grammar size G as too large to compile
//     (providers/schema_too_large.h), so later plans for that model keep every schema or part
//     below a ceiling under G (pipeline/lowering/measure.h, Profile::max_grammar_size);
//   - the context window: a provider refused a request as longer than the model's context
//     (providers/context_too_long.h), so later calls split their input into parts that fit
//     (pipeline/input/plan.h).
// Kept with the plan cache for this process and, when a shared store is configured, in Redis,
// so other replicas and batch workers do not make the same mistake. Thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "registry/redis_client.h"

namespace structure::actors {

class LearnedCeilings {
 public:
  // `shared_key`: the store's hash that holds the limits (kSharedKey, kWindowsKey).
  explicit LearnedCeilings(std::string shared_key = kSharedKey)
      : shared_key_(std::move(shared_key)) {}

  // The ceiling learned for `model` ("provider/model"); 0 = none. With a shared store, a
  // ceiling another process learned arrives with the next refresh (at most every 10 s).
  size_t Get(const std::string& model);

  // The provider refused a schema of grammar size `refused`: the ceiling drops to 3/5 of it
  // (one half of a split in two, with room), and never rises. Returns the ceiling in force.
  size_t Learn(const std::string& model, size_t refused);

  // Lowers the limit of `model` to `limit` (never raises it). Returns the limit in force.
  size_t Lower(const std::string& model, size_t limit);

  // Shares the ceilings through the store (hash "structure:grammar-ceilings", written with a
  // Lua min so a higher value never replaces a lower one). Null: this process only.
  void UseSharedStore(std::shared_ptr<registry::RedisClient> client);

  static constexpr const char* kSharedKey = "structure:grammar-ceilings";
  static constexpr const char* kWindowsKey = "structure:context-windows";

 private:
  // Shared with the store's callbacks, which may run after this object is gone.
  struct State {
    std::mutex mu;
    std::map<std::string, size_t> ceilings;  // guarded by mu
    std::shared_ptr<registry::RedisClient> shared;
    std::chrono::steady_clock::time_point refreshed{};  // guarded by mu
    bool refreshing = false;                            // guarded by mu
  };

  void Refresh();

  std::string shared_key_;
  std::shared_ptr<State> state_ = std::make_shared<State>();
};

}  // namespace structure::actors
