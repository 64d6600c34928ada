// Persistence of the schema builder's answers: description -> schema (or the question to ask),
// with a time to live. The SQLite implementation shares the registry's database file.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "base/json.h"
#include "structure/status.h"

struct sqlite3;

namespace structure::registry {

struct CachedBuild {
  bool need = false;     // true: the builder answered {"_need": ...} instead of an output
  Json schema;           // iff !need: the builder's whole output {schema, confidence, ...}, so
                         // each caller applies its own confidence threshold
  std::string question;  // iff need
  double confidence = 0;
  int64_t created_ms = 0;
};

class BuilderCacheStore {
 public:
  // Opens (creating the table if needed) the cache in the SQLite file at `path` (":memory:"
  // for a private one). kUnavailable when the file cannot be opened.
  static Result<std::unique_ptr<BuilderCacheStore>> Open(const std::string& path);
  ~BuilderCacheStore();

  // The entry for `key` if it exists, its stored text equals `normalized` and it is younger
  // than ttl_ms at now_ms. Expired entries are deleted on the way.
  Result<std::optional<CachedBuild>> Get(const std::string& key, const std::string& normalized,
                                         int64_t now_ms, int64_t ttl_ms);
  Status Put(const std::string& key, const std::string& normalized, const CachedBuild& entry);

 private:
  explicit BuilderCacheStore(sqlite3* db) : db_(db) {}
  std::mutex mu_;
  sqlite3* db_;
};

}  // namespace structure::registry
