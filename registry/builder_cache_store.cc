#include "registry/builder_cache_store.h"

#include <sqlite3.h>

namespace structure::registry {

namespace {

Status SqlError(sqlite3* db, const std::string& what) {
  return Status(Code::kUnavailable, "builder cache: " + what + ": " + sqlite3_errmsg(db));
}

// Finalizes a statement on every path.
struct Stmt {
  sqlite3_stmt* s = nullptr;
  ~Stmt() { sqlite3_finalize(s); }
};

}  // namespace

Result<std::unique_ptr<BuilderCacheStore>> BuilderCacheStore::Open(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK) {
    Status st = SqlError(db, "cannot open " + path);
    sqlite3_close(db);
    return st;
  }
  sqlite3_busy_timeout(db, 5000);
  const char* ddl =
      "CREATE TABLE IF NOT EXISTS builder_cache ("
      " key TEXT PRIMARY KEY, normalized TEXT NOT NULL, need INTEGER NOT NULL,"
      " schema TEXT, question TEXT, confidence REAL NOT NULL, created_ms INTEGER NOT NULL)";
  char* err = nullptr;
  if (sqlite3_exec(db, ddl, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    sqlite3_close(db);
    return Status(Code::kUnavailable, "builder cache: cannot create table: " + msg);
  }
  return std::unique_ptr<BuilderCacheStore>(new BuilderCacheStore(db));
}

BuilderCacheStore::~BuilderCacheStore() { sqlite3_close(db_); }

Result<std::optional<CachedBuild>> BuilderCacheStore::Get(const std::string& key,
                                                          const std::string& normalized,
                                                          int64_t now_ms, int64_t ttl_ms) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt st;
  if (sqlite3_prepare_v2(db_,
                         "SELECT normalized, need, schema, question, confidence, created_ms "
                         "FROM builder_cache WHERE key = ?1",
                         -1, &st.s, nullptr) != SQLITE_OK) {
    return SqlError(db_, "prepare");
  }
  sqlite3_bind_text(st.s, 1, key.c_str(), -1, SQLITE_TRANSIENT);
  int rc = sqlite3_step(st.s);
  if (rc == SQLITE_DONE) return std::optional<CachedBuild>();
  if (rc != SQLITE_ROW) return SqlError(db_, "read");
  auto text = [&](int col) {
    const unsigned char* t = sqlite3_column_text(st.s, col);
    return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
  };
  CachedBuild e;
  std::string stored = text(0);
  e.need = sqlite3_column_int(st.s, 1) != 0;
  std::string schema = text(2);
  e.question = text(3);
  e.confidence = sqlite3_column_double(st.s, 4);
  e.created_ms = sqlite3_column_int64(st.s, 5);
  if (stored != normalized) return std::optional<CachedBuild>();  // a hash collision
  if (ttl_ms > 0 && now_ms - e.created_ms >= ttl_ms) {
    Stmt del;
    if (sqlite3_prepare_v2(db_, "DELETE FROM builder_cache WHERE key = ?1", -1, &del.s, nullptr) ==
        SQLITE_OK) {
      sqlite3_bind_text(del.s, 1, key.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_step(del.s);
    }
    return std::optional<CachedBuild>();
  }
  if (!e.need) {
    auto parsed = ParseJson(schema);
    if (!parsed.ok()) return std::optional<CachedBuild>();  // a damaged row is a miss
    e.schema = std::move(*parsed);
  }
  return std::optional<CachedBuild>(std::move(e));
}

Status BuilderCacheStore::Put(const std::string& key, const std::string& normalized,
                              const CachedBuild& entry) {
  std::lock_guard<std::mutex> lock(mu_);
  Stmt st;
  if (sqlite3_prepare_v2(db_,
                         "INSERT OR REPLACE INTO builder_cache "
                         "(key, normalized, need, schema, question, confidence, created_ms) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                         -1, &st.s, nullptr) != SQLITE_OK) {
    return SqlError(db_, "prepare");
  }
  std::string schema = entry.need ? "" : ToJson(entry.schema);
  sqlite3_bind_text(st.s, 1, key.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st.s, 2, normalized.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(st.s, 3, entry.need ? 1 : 0);
  sqlite3_bind_text(st.s, 4, schema.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st.s, 5, entry.question.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_double(st.s, 6, entry.confidence);
  sqlite3_bind_int64(st.s, 7, entry.created_ms);
  if (sqlite3_step(st.s) != SQLITE_DONE) return SqlError(db_, "write");
  return Status::Ok();
}

}  // namespace structure::registry
