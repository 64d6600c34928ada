#include "registry/fallback_schema_store.h"

#include <utility>

namespace structure::registry {
namespace {

constexpr size_t kMaxCopies = 100000;

std::string KeyId(const StoreKey& key) { return key.tenant + '\x1f' + key.project; }
std::string RowId(const StoreKey& key, std::string_view name) {
  return KeyId(key) + '\x1f' + std::string(name);
}

template <typename Map, typename T>
void Remember(Map& map, const std::string& id, T value, int64_t at_ms) {
  if (map.size() >= kMaxCopies && !map.count(id)) map.clear();
  map[id] = {std::move(value), at_ms};
}

}  // namespace

FallbackSchemaStore::FallbackSchemaStore(std::unique_ptr<SchemaStore> inner,
                                         std::chrono::milliseconds max_age,
                                         std::function<int64_t()> now_ms)
    : inner_(std::move(inner)), max_age_(max_age), now_ms_(std::move(now_ms)) {}

int64_t FallbackSchemaStore::Now() const {
  if (now_ms_) return now_ms_();
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <typename T>
Result<T> FallbackSchemaStore::Fallback(const std::map<std::string, Copy<T>>& copies,
                                        const std::string& id, const Status& error) const {
  auto it = copies.find(id);
  if (it == copies.end()) {
    return Unavailable(error.message() + "; no earlier answer to serve meanwhile");
  }
  int64_t age = Now() - it->second.at_ms;
  if (age <= max_age_.count()) return it->second.value;
  return Unavailable(error.message() + "; the last answer is " + std::to_string(age / 1000) +
                     " s old, older than the " + std::to_string(max_age_.count() / 1000) +
                     " s this server serves during an outage");
}

Result<std::optional<StoredSchema>> FallbackSchemaStore::Get(const StoreKey& key,
                                                             std::string_view name) const {
  auto r = inner_->Get(key, name);
  std::lock_guard<std::mutex> lock(mu_);
  if (r.ok()) {
    Remember(rows_, RowId(key, name), *r, Now());
    return r;
  }
  if (r.status().code() != Code::kUnavailable) return r;
  return Fallback(rows_, RowId(key, name), r.status());
}

Result<std::vector<StoredSchema>> FallbackSchemaStore::List(const StoreKey& key) const {
  auto r = inner_->List(key);
  std::lock_guard<std::mutex> lock(mu_);
  if (r.ok()) {
    Remember(lists_, KeyId(key), *r, Now());
    return r;
  }
  if (r.status().code() != Code::kUnavailable) return r;
  return Fallback(lists_, KeyId(key), r.status());
}

Result<std::vector<StoredSchema>> FallbackSchemaStore::History(const StoreKey& key,
                                                               std::string_view name) const {
  return inner_->History(key, name);
}

void FallbackSchemaStore::Forget(const StoreKey& key, std::string_view name) {
  std::lock_guard<std::mutex> lock(mu_);
  rows_.erase(RowId(key, name));
  lists_.erase(KeyId(key));
}

// A write that went through makes the copies it touched stale. One refused during an outage
// leaves them: they are what the database held (a commit hidden by a connection lost during
// COMMIT is the rare exception, and outage reads are bounded in age anyway).
Status FallbackSchemaStore::Delete(const StoreKey& key, std::string_view name) {
  Status s = inner_->Delete(key, name);
  if (s.ok()) Forget(key, name);
  return s;
}

Status FallbackSchemaStore::Write(const StoreKey& key, const StoredSchema& schema,
                                  std::optional<int64_t> expect_revision) {
  Status s = inner_->Put(key, schema, expect_revision);
  if (s.ok()) Forget(key, schema.name);
  return s;
}

}  // namespace structure::registry
