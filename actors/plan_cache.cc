#include "actors/plan_cache.h"

namespace structure::actors {

PlanResult PlanCache::Get(const std::string& key, const std::function<PlanResult()>& make) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(key);
    if (it != index_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      return it->second->plan;
    }
  }
  PlanResult made = make();
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(key);
  if (it != index_.end()) return it->second->plan;  // another thread stored it meanwhile
  lru_.push_front(Entry{key, made});
  index_.emplace(key, lru_.begin());
  if (lru_.size() > capacity_) {
    index_.erase(lru_.back().key);
    lru_.pop_back();
  }
  return made;
}

size_t PlanCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return lru_.size();
}

}  // namespace structure::actors
