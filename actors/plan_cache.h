// The engine's cache of content-loop plans (the compiled schema, its lowering for one provider
// and model, the need channel and lift), one per distinct schema, target and plan options: a
// job of a million records with one schema compiles and lowers it once. Failures are cached
// too, so a bad schema repeated on every line costs one compile. Thread-safe; bounded, the
// least recently used plan goes first.
#pragma once

#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "actors/learned_ceilings.h"
#include "pipeline/loop/content_loop.h"
#include "structure/status.h"

namespace structure::actors {

using PlanResult = Result<std::shared_ptr<const pipeline::LoopPlan>>;

class PlanCache {
 public:
  explicit PlanCache(size_t capacity = 512) : capacity_(capacity == 0 ? 1 : capacity) {}

  // The plan stored under `key`, or make()'s result, stored. make() runs outside the lock, so
  // two threads missing the same key at once may both build it; the first stored result wins.
  PlanResult Get(const std::string& key, const std::function<PlanResult()>& make);

  size_t size() const;

  // The grammar ceilings learned from the providers' "too large" errors, per model: a plan's
  // key names the ceiling it was made under.
  LearnedCeilings& ceilings() { return ceilings_; }
  // The context windows learned from the providers' "too long" errors, per model, in tokens.
  LearnedCeilings& windows() { return windows_; }

 private:
  struct Entry {
    std::string key;
    PlanResult plan;
  };
  mutable std::mutex mu_;
  size_t capacity_;
  std::list<Entry> lru_;  // most recently used first
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  LearnedCeilings ceilings_;
  LearnedCeilings windows_{LearnedCeilings::kWindowsKey};
};

}  // namespace structure::actors
