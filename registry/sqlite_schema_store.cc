#include "registry/sqlite_schema_store.h"

#include <mutex>
#include <utility>

#include <sqlite3.h>

#include "base/time_format.h"
#include "registry/store_migrations.h"

namespace structure::registry {
namespace {

constexpr int kBusyTimeoutMs = 5000;

constexpr int64_t kMaxHistory = 50;

// Busy/locked means another connection holds the file: worth a retry. Anything else is a fault
// of the file or of our SQL.
Status SqliteError(sqlite3* db, int rc, std::string_view what) {
  std::string message = "registry store: " + std::string(what) + ": " +
                        (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  int primary = rc & 0xff;
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED || primary == SQLITE_CANTOPEN ||
      primary == SQLITE_IOERR || primary == SQLITE_FULL || primary == SQLITE_READONLY) {
    return Unavailable(std::move(message));
  }
  return Internal(std::move(message));
}

// A prepared statement that finalizes itself.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    rc_ = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr);
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Status status(std::string_view what) const {
    return rc_ == SQLITE_OK ? Status::Ok() : SqliteError(db_, rc_, what);
  }
  void Bind(int index, std::string_view text) {
    if (rc_ == SQLITE_OK) {
      rc_ = sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                              SQLITE_TRANSIENT);
    }
  }
  void Bind(int index, int64_t value) {
    if (rc_ == SQLITE_OK) rc_ = sqlite3_bind_int64(stmt_, index, value);
  }
  // SQLITE_ROW, SQLITE_DONE or an error code (kept for status()).
  int Step() {
    if (rc_ != SQLITE_OK) return rc_;
    int rc = sqlite3_step(stmt_);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) rc_ = rc;
    return rc;
  }
  std::string Text(int column) const {
    const unsigned char* p = sqlite3_column_text(stmt_, column);
    int n = sqlite3_column_bytes(stmt_, column);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(n))
             : std::string();
  }
  int64_t Int(int column) const { return sqlite3_column_int64(stmt_, column); }
  int changes() const { return sqlite3_changes(db_); }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  int rc_ = SQLITE_OK;
};

// Columns: name, version, schema, manual, updated_at_ms, revision.
constexpr char kColumns[] =
    "SELECT s.name, s.version, s.schema, s.manual, s.updated_at_ms, "
    "(SELECT COALESCE(MAX(v.seq), 0) FROM registry_schema_versions v WHERE v.tenant = s.tenant "
    "AND v.project = s.project AND v.name = s.name) FROM registry_schemas s ";

StoredSchema ReadRow(const Statement& st) {
  StoredSchema row;
  row.name = st.Text(0);
  row.version = st.Text(1);
  row.schema = st.Text(2);
  row.manual = st.Text(3);
  row.updated_at_ms = st.Int(4);
  row.revision = st.Int(5);
  return row;
}

Status Exec(sqlite3* db, const std::string& sql, std::string_view what) {
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  return rc == SQLITE_OK ? Status::Ok() : SqliteError(db, rc, what);
}

// Applies the pending migrations in one transaction that holds the file's write lock, so two
// processes opening one new file migrate once.
Status Migrate(sqlite3* db, const std::string& path) {
  const std::string what = "cannot migrate \"" + path + "\"";
  STRUCTURE_RETURN_IF_ERROR(Exec(db, "BEGIN IMMEDIATE", what));
  auto body = [&]() -> Status {
    STRUCTURE_RETURN_IF_ERROR(Exec(db, kMigrationsTable, what));
    Statement current(db, "SELECT COALESCE(MAX(version), 0) FROM structure_migrations");
    if (current.Step() != SQLITE_ROW) return current.status(what);
    int64_t found = current.Int(0);
    STRUCTURE_RETURN_IF_ERROR(CheckStoreVersion(found, "the SQLite file \"" + path + "\""));
    for (const Migration& m : StoreMigrations()) {
      if (m.version <= found) continue;
      for (const std::string& sql : m.sqlite) STRUCTURE_RETURN_IF_ERROR(Exec(db, sql, what));
      Statement record(db,
                       "INSERT INTO structure_migrations (version, applied_at_ms) "
                       "VALUES (?1, ?2)");
      record.Bind(1, m.version);
      record.Bind(2, UnixNowMs());
      if (record.Step() != SQLITE_DONE) return record.status(what);
    }
    return Status::Ok();
  };
  Status s = body();
  if (!s.ok()) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    return s;
  }
  return Exec(db, "COMMIT", what);
}

class SqliteSchemaStore final : public SchemaStore {
 public:
  explicit SqliteSchemaStore(sqlite3* db) : db_(db) {}
  ~SqliteSchemaStore() override { sqlite3_close_v2(db_); }

  Result<std::optional<StoredSchema>> Get(const StoreKey& key,
                                          std::string_view name) const override {
    std::lock_guard<std::mutex> lock(mu_);
    return GetLocked(key, name);
  }

  Result<std::vector<StoredSchema>> List(const StoreKey& key) const override {
    std::lock_guard<std::mutex> lock(mu_);
    Statement st(
        db_,
        (std::string(kColumns) + "WHERE s.tenant = ?1 AND s.project = ?2 ORDER BY s.name").c_str());
    st.Bind(1, key.tenant);
    st.Bind(2, key.project);
    std::vector<StoredSchema> rows;
    int rc;
    while ((rc = st.Step()) == SQLITE_ROW) rows.push_back(ReadRow(st));
    if (rc != SQLITE_DONE) return st.status("list");
    return rows;
  }

  Result<std::vector<StoredSchema>> History(const StoreKey& key,
                                            std::string_view name) const override {
    std::lock_guard<std::mutex> lock(mu_);
    Statement st(db_,
                 "SELECT name, version, schema, manual, updated_at_ms, seq FROM "
                 "registry_schema_versions WHERE tenant = ?1 AND project = ?2 AND name = ?3 "
                 "ORDER BY seq DESC");
    st.Bind(1, key.tenant);
    st.Bind(2, key.project);
    st.Bind(3, name);
    std::vector<StoredSchema> rows;
    int rc;
    while ((rc = st.Step()) == SQLITE_ROW) rows.push_back(ReadRow(st));
    if (rc != SQLITE_DONE) return st.status("history");
    return rows;
  }

  Status Delete(const StoreKey& key, std::string_view name) override {
    std::lock_guard<std::mutex> lock(mu_);
    Statement st(db_,
                 "DELETE FROM registry_schemas WHERE tenant = ?1 AND project = ?2 AND name = ?3");
    st.Bind(1, key.tenant);
    st.Bind(2, key.project);
    st.Bind(3, name);
    if (st.Step() != SQLITE_DONE) return st.status("delete");
    if (st.changes() == 0) return NotFound("no stored schema \"" + std::string(name) + "\"");
    return Status::Ok();
  }

 protected:
  Status Write(const StoreKey& key, const StoredSchema& schema,
               std::optional<int64_t> expect_revision) override {
    std::lock_guard<std::mutex> lock(mu_);
    // The row and its history entry are written together, or neither; IMMEDIATE takes the
    // file's write lock before the revision is read.
    int rc = sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) return SqliteError(db_, rc, "put");
    Status written = WriteLocked(key, schema, expect_revision);
    rc = sqlite3_exec(db_, written.ok() ? "COMMIT" : "ROLLBACK", nullptr, nullptr, nullptr);
    if (written.ok() && rc != SQLITE_OK) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      return SqliteError(db_, rc, "put");
    }
    return written;
  }

 private:
  Result<std::optional<StoredSchema>> GetLocked(const StoreKey& key, std::string_view name) const {
    Statement st(
        db_,
        (std::string(kColumns) + "WHERE s.tenant = ?1 AND s.project = ?2 AND s.name = ?3").c_str());
    st.Bind(1, key.tenant);
    st.Bind(2, key.project);
    st.Bind(3, name);
    int rc = st.Step();
    if (rc == SQLITE_ROW) return std::optional<StoredSchema>(ReadRow(st));
    if (rc == SQLITE_DONE) return std::optional<StoredSchema>();
    return st.status("get");
  }

  // mu_ held, in a transaction.
  Status WriteLocked(const StoreKey& key, const StoredSchema& schema,
                     std::optional<int64_t> expect_revision) {
    if (expect_revision) {
      auto current = GetLocked(key, schema.name);
      if (!current.ok()) return current.status();
      int64_t revision = current->has_value() ? (*current)->revision : 0;
      if (revision != *expect_revision) {
        return Status(Code::kFailedPrecondition,
                      "stored schema \"" + schema.name + "\" changed meanwhile");
      }
    }
    Statement st(db_,
                 "INSERT OR REPLACE INTO registry_schemas "
                 "(tenant, project, name, version, schema, manual, updated_at_ms) "
                 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    Statement history(db_,
                      "INSERT INTO registry_schema_versions "
                      "(tenant, project, name, seq, version, schema, manual, updated_at_ms) "
                      "SELECT ?1, ?2, ?3, COALESCE(MAX(seq), 0) + 1, ?4, ?5, ?6, ?7 "
                      "FROM registry_schema_versions WHERE tenant = ?1 AND project = ?2 AND "
                      "name = ?3");
    for (Statement* s : {&st, &history}) {
      s->Bind(1, key.tenant);
      s->Bind(2, key.project);
      s->Bind(3, schema.name);
      s->Bind(4, schema.version);
      s->Bind(5, schema.schema);
      s->Bind(6, schema.manual);
      s->Bind(7, schema.updated_at_ms);
      if (s->Step() != SQLITE_DONE) return s->status("put");
    }
    Statement trim(db_,
                   "DELETE FROM registry_schema_versions WHERE tenant = ?1 AND project = ?2 AND "
                   "name = ?3 AND seq <= (SELECT MAX(seq) FROM registry_schema_versions WHERE "
                   "tenant = ?1 AND project = ?2 AND name = ?3) - ?4");
    trim.Bind(1, key.tenant);
    trim.Bind(2, key.project);
    trim.Bind(3, schema.name);
    trim.Bind(4, kMaxHistory);
    if (trim.Step() != SQLITE_DONE) return trim.status("put");
    return Status::Ok();
  }

  mutable std::mutex mu_;
  sqlite3* db_;  // owned; guarded by mu_
};

}  // namespace

Result<std::unique_ptr<SchemaStore>> OpenSqliteSchemaStore(const std::string& path) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    Status s = Unavailable("registry store: cannot open \"" + path +
                           "\": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
    sqlite3_close(db);
    return s;
  }
  auto store = std::make_unique<SqliteSchemaStore>(db);
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  // WAL lets readers on other connections (other engine stores, an admin tool) proceed while
  // we write; an in-memory database ignores it.
  char* err = nullptr;
  sqlite3_exec(db, "PRAGMA journal_mode=WAL", nullptr, nullptr, &err);
  sqlite3_free(err);
  STRUCTURE_RETURN_IF_ERROR(Migrate(db, path));
  return std::unique_ptr<SchemaStore>(std::move(store));
}

}  // namespace structure::registry
