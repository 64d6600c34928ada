// A schema store that answers reads from its last good answer while the database behind it is
// unreachable, up to an age bound. Every read still goes to the database first, so while it is
// up a write through any replica is seen by the next read of every replica (no staleness);
// only during an outage may a read be up to `max_age` old, and past that it fails (503).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "registry/schema_store.h"

namespace structure::registry {

class FallbackSchemaStore final : public SchemaStore {
 public:
  // `now_ms`: a steady clock in milliseconds (tests); the steady clock when empty.
  FallbackSchemaStore(std::unique_ptr<SchemaStore> inner, std::chrono::milliseconds max_age,
                      std::function<int64_t()> now_ms = {});

  // Get and List: the database's answer (remembered), or, when it answers kUnavailable, the
  // remembered answer if it is at most max_age old; otherwise the kUnavailable error, saying
  // how old the copy was (or that there is none).
  Result<std::optional<StoredSchema>> Get(const StoreKey& key,
                                          std::string_view name) const override;
  Result<std::vector<StoredSchema>> List(const StoreKey& key) const override;
  // History, Put and Delete go to the database only (a write during an outage is refused).
  Result<std::vector<StoredSchema>> History(const StoreKey& key,
                                            std::string_view name) const override;
  Status Delete(const StoreKey& key, std::string_view name) override;
  Status Health() const override { return inner_->Health(); }

 protected:
  Status Write(const StoreKey& key, const StoredSchema& schema,
               std::optional<int64_t> expect_revision) override;

 private:
  template <typename T>
  struct Copy {
    T value;
    int64_t at_ms;
  };
  int64_t Now() const;
  // The copy for `id` when young enough, else `error` extended with why there is none.
  template <typename T>
  Result<T> Fallback(const std::map<std::string, Copy<T>>& copies, const std::string& id,
                     const Status& error) const;
  void Forget(const StoreKey& key, std::string_view name);

  const std::unique_ptr<SchemaStore> inner_;
  const std::chrono::milliseconds max_age_;
  const std::function<int64_t()> now_ms_;
  mutable std::mutex mu_;
  // Guarded by mu_; each at most kMaxCopies entries (cleared when full).
  mutable std::map<std::string, Copy<std::optional<StoredSchema>>> rows_;
  mutable std::map<std::string, Copy<std::vector<StoredSchema>>> lists_;
};

}  // namespace structure::registry
