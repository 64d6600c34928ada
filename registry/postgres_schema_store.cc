#include "registry/postgres_schema_store.h"

#include <endian.h>
#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <utility>

#include "base/time_format.h"
#include "config/database_url.h"
#include "registry/store_migrations.h"

namespace structure::registry {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int64_t kMaxHistory = 50;
constexpr std::chrono::milliseconds kFirstBackoff{100};
constexpr std::chrono::milliseconds kMaxBackoff{5000};

// PostgreSQL's type oids (pg_type.dat): the parameters are sent in binary form.
constexpr Oid kBytea = 17;
constexpr Oid kInt8 = 20;
constexpr Oid kText = 25;

// Statement parameters in binary form.
class Params {
 public:
  Params& Text(std::string_view v) { return Add(std::string(v), kText); }
  Params& Bytes(std::string_view v) { return Add(std::string(v), kBytea); }
  Params& Int(int64_t v) {
    uint64_t be = htobe64(static_cast<uint64_t>(v));
    std::string bytes(sizeof(be), '\0');
    std::memcpy(bytes.data(), &be, sizeof(be));
    return Add(std::move(bytes), kInt8);
  }
  int size() const { return static_cast<int>(values_.size()); }
  const Oid* types() const { return types_.data(); }
  std::vector<const char*> values() const {
    std::vector<const char*> out;
    for (const std::string& v : values_) out.push_back(v.data());
    return out;
  }
  std::vector<int> lengths() const {
    std::vector<int> out;
    for (const std::string& v : values_) out.push_back(static_cast<int>(v.size()));
    return out;
  }

 private:
  Params& Add(std::string value, Oid type) {
    values_.push_back(std::move(value));
    types_.push_back(type);
    return *this;
  }
  std::vector<std::string> values_;
  std::vector<Oid> types_;
};

struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using PgResult = std::unique_ptr<PGresult, ResultDeleter>;

// Binary result fields.
std::string Bytes(const PGresult* r, int row, int col) {
  return std::string(PQgetvalue(r, row, col), static_cast<size_t>(PQgetlength(r, row, col)));
}
int64_t Int(const PGresult* r, int row, int col) {
  if (PQgetlength(r, row, col) != 8) return 0;
  uint64_t be;
  std::memcpy(&be, PQgetvalue(r, row, col), sizeof(be));
  return static_cast<int64_t>(be64toh(be));
}

// Columns: name, version, schema, manual, updated_at_ms, revision.
constexpr char kColumns[] =
    "SELECT s.name, s.version, s.schema, s.manual, s.updated_at_ms, "
    "(SELECT COALESCE(MAX(v.seq), 0) FROM registry_schema_versions v WHERE v.tenant = s.tenant "
    "AND v.project = s.project AND v.name = s.name) FROM registry_schemas s ";

StoredSchema ReadRow(const PGresult* r, int row) {
  StoredSchema out;
  out.name = Bytes(r, row, 0);
  out.version = Bytes(r, row, 1);
  out.schema = Bytes(r, row, 2);
  out.manual = Bytes(r, row, 3);
  out.updated_at_ms = Int(r, row, 4);
  out.revision = Int(r, row, 5);
  return out;
}

std::string Trimmed(const char* message) {
  std::string s = message ? message : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// SQLSTATE classes worth a retry: connection (08), resources (53), operator intervention (57:
// shutdown, statement timeout), transaction rollback (40: serialization, deadlock), lock not
// available (55P03).
bool Transient(const std::string& sqlstate) {
  std::string cls = sqlstate.substr(0, 2);
  return cls == "08" || cls == "53" || cls == "57" || cls == "40" || sqlstate == "55P03";
}

class PostgresSchemaStore final : public SchemaStore {
 public:
  explicit PostgresSchemaStore(std::string url)
      : url_(std::move(url)), where_("PostgreSQL database " + config::DescribePostgresUrl(url_)) {}
  ~PostgresSchemaStore() override {
    if (conn_) PQfinish(conn_);
  }

  // Connects and migrates (open time: no backoff, the error is returned).
  Status Start() {
    std::lock_guard<std::mutex> lock(mu_);
    STRUCTURE_RETURN_IF_ERROR(ConnectLocked());
    Status migrated = MigrateLocked();
    if (!migrated.ok()) Drop();
    return migrated;
  }

  Result<std::optional<StoredSchema>> Get(const StoreKey& key,
                                          std::string_view name) const override {
    std::lock_guard<std::mutex> lock(mu_);
    std::optional<StoredSchema> out;
    Status s = Retrying([&]() -> Status {
      auto r =
          Query(std::string(kColumns) + "WHERE s.tenant = $1 AND s.project = $2 AND s.name = $3",
                Params().Text(key.tenant).Text(key.project).Text(name), "get");
      if (!r.ok()) return r.status();
      out.reset();
      if (PQntuples(r->get()) > 0) out = ReadRow(r->get(), 0);
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return out;
  }

  Result<std::vector<StoredSchema>> List(const StoreKey& key) const override {
    std::lock_guard<std::mutex> lock(mu_);
    return Rows(std::string(kColumns) + "WHERE s.tenant = $1 AND s.project = $2 ORDER BY s.name",
                Params().Text(key.tenant).Text(key.project), "list");
  }

  Result<std::vector<StoredSchema>> History(const StoreKey& key,
                                            std::string_view name) const override {
    std::lock_guard<std::mutex> lock(mu_);
    return Rows(
        "SELECT name, version, schema, manual, updated_at_ms, seq FROM registry_schema_versions "
        "WHERE tenant = $1 AND project = $2 AND name = $3 ORDER BY seq DESC",
        Params().Text(key.tenant).Text(key.project).Text(name), "history");
  }

  Status Delete(const StoreKey& key, std::string_view name) override {
    std::lock_guard<std::mutex> lock(mu_);
    bool deleted = false;
    Status s = Retrying([&]() -> Status {
      auto r = Query(
          "DELETE FROM registry_schemas WHERE tenant = $1 AND project = $2 AND "
          "name = $3",
          Params().Text(key.tenant).Text(key.project).Text(name), "delete");
      if (!r.ok()) return r.status();
      deleted = std::strcmp(PQcmdTuples(r->get()), "0") != 0;
      return Status::Ok();
    });
    if (!s.ok()) return s;
    if (!deleted) return NotFound("no stored schema \"" + std::string(name) + "\"");
    return Status::Ok();
  }

 protected:
  Status Write(const StoreKey& key, const StoredSchema& schema,
               std::optional<int64_t> expect_revision) override {
    std::lock_guard<std::mutex> lock(mu_);
    // Only a failure of BEGIN is retried on a fresh connection: past it, the commit may have
    // happened and a second try could append the same put twice.
    STRUCTURE_RETURN_IF_ERROR(Retrying([&] { return Query("BEGIN", Params(), "put").status(); }));
    Status written = WriteInTransaction(key, schema, expect_revision);
    if (!written.ok()) {
      if (conn_) PQclear(PQexec(conn_, "ROLLBACK"));
      return written;
    }
    auto c = Query("COMMIT", Params(), "put");
    return c.status();
  }

 private:
  Status WriteInTransaction(const StoreKey& key, const StoredSchema& schema,
                            std::optional<int64_t> expect_revision) {
    // One writer per (key, name) at a time, across every replica, until the commit.
    auto locked = Query(
        "SELECT pg_advisory_xact_lock(hashtextextended($1 || chr(31) || $2 || chr(31) || $3, 0))",
        Params().Text(key.tenant).Text(key.project).Text(schema.name), "put");
    if (!locked.ok()) return locked.status();
    if (expect_revision) {
      auto current =
          Query(std::string(kColumns) + "WHERE s.tenant = $1 AND s.project = $2 AND s.name = $3",
                Params().Text(key.tenant).Text(key.project).Text(schema.name), "put");
      if (!current.ok()) return current.status();
      int64_t revision = PQntuples(current->get()) > 0 ? ReadRow(current->get(), 0).revision : 0;
      if (revision != *expect_revision) {
        return Status(Code::kFailedPrecondition,
                      "stored schema \"" + schema.name + "\" changed meanwhile");
      }
    }
    auto upsert = Query(
        "INSERT INTO registry_schemas (tenant, project, name, version, schema, manual, "
        "updated_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (tenant, project, name) "
        "DO UPDATE SET version = EXCLUDED.version, schema = EXCLUDED.schema, manual = "
        "EXCLUDED.manual, updated_at_ms = EXCLUDED.updated_at_ms",
        RowParams(key, schema), "put");
    if (!upsert.ok()) return upsert.status();
    auto history = Query(
        "INSERT INTO registry_schema_versions (tenant, project, name, seq, version, schema, "
        "manual, updated_at_ms) SELECT $1, $2, $3, COALESCE(MAX(seq), 0) + 1, $4, $5, $6, $7 "
        "FROM registry_schema_versions WHERE tenant = $1 AND project = $2 AND name = $3",
        RowParams(key, schema), "put");
    if (!history.ok()) return history.status();
    auto trim = Query(
        "DELETE FROM registry_schema_versions WHERE tenant = $1 AND project = $2 AND name = $3 "
        "AND seq <= (SELECT MAX(seq) FROM registry_schema_versions WHERE tenant = $1 AND "
        "project = $2 AND name = $3) - $4",
        Params().Text(key.tenant).Text(key.project).Text(schema.name).Int(kMaxHistory), "put");
    return trim.status();
  }

  static Params RowParams(const StoreKey& key, const StoredSchema& schema) {
    Params p;
    p.Text(key.tenant).Text(key.project).Text(schema.name).Text(schema.version);
    p.Bytes(schema.schema).Bytes(schema.manual).Int(schema.updated_at_ms);
    return p;
  }

  Result<std::vector<StoredSchema>> Rows(const std::string& sql, const Params& params,
                                         const char* what) const {
    std::vector<StoredSchema> rows;
    Status s = Retrying([&]() -> Status {
      auto r = Query(sql, params, what);
      if (!r.ok()) return r.status();
      rows.clear();
      for (int i = 0; i < PQntuples(r->get()); ++i) rows.push_back(ReadRow(r->get(), i));
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return rows;
  }

  // mu_ held. Runs `op` on a connection; when the connection it used was an old one that
  // turned out lost (e.g. the server restarted since), once more on a fresh one.
  template <typename Op>
  Status Retrying(Op op) const {
    bool fresh = conn_ == nullptr;
    STRUCTURE_RETURN_IF_ERROR(EnsureConnectedLocked());
    Status s = op();
    if (s.ok() || fresh || conn_ != nullptr) return s;
    next_attempt_ = Clock::now();  // the old connection died: try a new one at once
    STRUCTURE_RETURN_IF_ERROR(EnsureConnectedLocked());
    return op();
  }

  // mu_ held.
  Result<PgResult> Query(const std::string& sql, const Params& params, const char* what) const {
    if (!conn_) return Unavailable(Unreachable());
    std::vector<const char*> values = params.values();
    std::vector<int> lengths = params.lengths();
    std::vector<int> formats(static_cast<size_t>(params.size()), 1);
    PgResult r(PQexecParams(conn_, sql.c_str(), params.size(), params.types(), values.data(),
                            lengths.data(), formats.data(), /*resultFormat=*/1));
    ExecStatusType st = r ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) return r;
    std::string message = Trimmed(r ? PQresultErrorMessage(r.get()) : PQerrorMessage(conn_));
    if (message.empty()) message = Trimmed(PQerrorMessage(conn_));
    const char* state = r ? PQresultErrorField(r.get(), PG_DIAG_SQLSTATE) : nullptr;
    if (PQstatus(conn_) != CONNECTION_OK) {
      last_error_ = message;
      Drop();
      return Unavailable("registry store: " + where_ + " is unavailable (" + what +
                         "): " + message);
    }
    if (state && Transient(state)) {
      return Unavailable("registry store: " + where_ + " (" + what + "): " + message);
    }
    return Internal("registry store: " + where_ + " (" + what + "): " + message);
  }

  // mu_ held. Reconnects when the backoff allows; kUnavailable meanwhile.
  Status EnsureConnectedLocked() const {
    if (conn_) return Status::Ok();
    if (Clock::now() < next_attempt_) return Unavailable(Unreachable());
    return ConnectLocked();
  }

  Status ConnectLocked() const {
    // Our defaults first: the URL's own parameters (expanded from dbname) override them.
    const char* keys[] = {"connect_timeout",
                          "tcp_user_timeout",
                          "keepalives_idle",
                          "application_name",
                          "options",
                          "dbname",
                          nullptr};
    const char* values[] = {"5",
                            "10000",
                            "10",
                            "structure",
                            "-c statement_timeout=10000 -c lock_timeout=10000",
                            url_.c_str(),
                            nullptr};
    PGconn* conn = PQconnectdbParams(keys, values, /*expand_dbname=*/1);
    if (conn && PQstatus(conn) == CONNECTION_OK) {
      conn_ = conn;
      backoff_ = std::chrono::milliseconds(0);
      return Status::Ok();
    }
    last_error_ = Trimmed(conn ? PQerrorMessage(conn) : "out of memory");
    PQfinish(conn);
    backoff_ = std::min(kMaxBackoff, std::max(kFirstBackoff, backoff_ * 2));
    next_attempt_ = Clock::now() + backoff_;
    return Unavailable("registry store: cannot connect to " + where_ + ": " + last_error_);
  }

  void Drop() const {
    if (conn_) PQfinish(conn_);
    conn_ = nullptr;
    backoff_ = std::min(kMaxBackoff, std::max(kFirstBackoff, backoff_ * 2));
    next_attempt_ = Clock::now() + backoff_;
  }

  std::string Unreachable() const {
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next_attempt_ - Clock::now());
    return "registry store: " + where_ + " is unavailable (" + last_error_ +
           "); next connection attempt in " + std::to_string(std::max<int64_t>(0, wait.count())) +
           " ms";
  }

  // mu_ held, connected. Under an advisory lock: replicas starting together migrate once.
  Status MigrateLocked() {
    const char* what = "migrate";
    STRUCTURE_RETURN_IF_ERROR(Query("BEGIN", Params(), what).status());
    auto body = [&]() -> Status {
      STRUCTURE_RETURN_IF_ERROR(
          Query("SELECT pg_advisory_xact_lock($1)", Params().Int(kMigrationLockKey), what)
              .status());
      STRUCTURE_RETURN_IF_ERROR(Query(kMigrationsTable, Params(), what).status());
      auto current = Query("SELECT COALESCE(MAX(version), 0)::BIGINT FROM structure_migrations",
                           Params(), what);
      if (!current.ok()) return current.status();
      int64_t found = Int(current->get(), 0, 0);
      STRUCTURE_RETURN_IF_ERROR(CheckStoreVersion(found, "the " + where_));
      for (const Migration& m : StoreMigrations()) {
        if (m.version <= found) continue;
        for (const std::string& sql : m.postgres) {
          STRUCTURE_RETURN_IF_ERROR(Query(sql, Params(), what).status());
        }
        STRUCTURE_RETURN_IF_ERROR(Query("INSERT INTO structure_migrations (version, "
                                        "applied_at_ms) VALUES ($1, $2)",
                                        Params().Int(m.version).Int(UnixNowMs()), what)
                                      .status());
      }
      return Status::Ok();
    };
    Status s = body();
    if (!s.ok()) {
      if (conn_) PQclear(PQexec(conn_, "ROLLBACK"));
      return s;
    }
    return Query("COMMIT", Params(), what).status();
  }

  const std::string url_;
  const std::string where_;
  mutable std::mutex mu_;
  // Guarded by mu_ (mutable: reads reconnect too).
  mutable PGconn* conn_ = nullptr;
  mutable Clock::time_point next_attempt_{};
  mutable std::chrono::milliseconds backoff_{0};
  mutable std::string last_error_;
};

}  // namespace

Result<std::unique_ptr<SchemaStore>> OpenPostgresSchemaStore(const std::string& url) {
  auto store = std::make_unique<PostgresSchemaStore>(url);
  STRUCTURE_RETURN_IF_ERROR(store->Start());
  return std::unique_ptr<SchemaStore>(std::move(store));
}

}  // namespace structure::registry
