#include "registry/postgres_connection.h"

#include <endian.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "base/time_format.h"
#include "config/database_url.h"
#include "registry/store_migrations.h"

namespace structure::registry {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::milliseconds kFirstBackoff{100};
constexpr std::chrono::milliseconds kMaxBackoff{5000};

// PostgreSQL's type oids (pg_type.dat).
constexpr Oid kBoolOid = 16;
constexpr Oid kByteaOid = 17;
constexpr Oid kInt8Oid = 20;
constexpr Oid kTextOid = 25;

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

}  // namespace

PgParams& PgParams::Add(std::string value, Oid type) {
  values_.push_back(std::move(value));
  types_.push_back(type);
  return *this;
}
PgParams& PgParams::Text(std::string_view v) { return Add(std::string(v), kTextOid); }
PgParams& PgParams::Bytes(std::string_view v) { return Add(std::string(v), kByteaOid); }
PgParams& PgParams::Bool(bool v) { return Add(std::string(1, v ? '\1' : '\0'), kBoolOid); }
PgParams& PgParams::Int(int64_t v) {
  uint64_t be = htobe64(static_cast<uint64_t>(v));
  std::string bytes(sizeof(be), '\0');
  std::memcpy(bytes.data(), &be, sizeof(be));
  return Add(std::move(bytes), kInt8Oid);
}
std::vector<const char*> PgParams::values() const {
  std::vector<const char*> out;
  for (const std::string& v : values_) out.push_back(v.data());
  return out;
}
std::vector<int> PgParams::lengths() const {
  std::vector<int> out;
  for (const std::string& v : values_) out.push_back(static_cast<int>(v.size()));
  return out;
}

std::string PgBytes(const PGresult* r, int row, int col) {
  return std::string(PQgetvalue(r, row, col), static_cast<size_t>(PQgetlength(r, row, col)));
}
int64_t PgInt(const PGresult* r, int row, int col) {
  if (PQgetlength(r, row, col) != 8) return 0;
  uint64_t be;
  std::memcpy(&be, PQgetvalue(r, row, col), sizeof(be));
  return static_cast<int64_t>(be64toh(be));
}

PostgresConnection::PostgresConnection(std::string url, std::string who)
    : url_(std::move(url)),
      who_(std::move(who)),
      where_("PostgreSQL database " + config::DescribePostgresUrl(url_)) {}

PostgresConnection::~PostgresConnection() {
  if (conn_) PQfinish(conn_);
}

Status PostgresConnection::Open() {
  STRUCTURE_RETURN_IF_ERROR(Connect());
  Status migrated = Migrate();
  if (!migrated.ok()) Drop();
  return migrated;
}

Result<PgResult> PostgresConnection::Query(const std::string& sql, const PgParams& params,
                                           const char* what) {
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
    return Unavailable(who_ + ": " + where_ + " is unavailable (" + what + "): " + message);
  }
  if (state && Transient(state)) {
    return Unavailable(who_ + ": " + where_ + " (" + what + "): " + message);
  }
  return Internal(who_ + ": " + where_ + " (" + what + "): " + message);
}

void PostgresConnection::Rollback() {
  if (conn_) PQclear(PQexec(conn_, "ROLLBACK"));
}

Status PostgresConnection::EnsureConnected() {
  if (conn_) return Status::Ok();
  if (Clock::now() < next_attempt_) return Unavailable(Unreachable());
  return Connect();
}

Status PostgresConnection::Connect() {
  // Our defaults first: the URL's own parameters (expanded from dbname) override them.
  const char* keys[] = {"connect_timeout",
                        "tcp_user_timeout",
                        "keepalives_idle",
                        "application_name",
                        "options",
                        "dbname",
                        nullptr};
  const char* values[] = {
      "5",
      "10000",
      "10",
      "structure",
      "-c statement_timeout=10000 -c lock_timeout=10000 -c client_min_messages=warning",
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
  return Unavailable(who_ + ": " + where_ + " is unavailable (cannot connect: " + last_error_ +
                     ")");
}

void PostgresConnection::Drop() {
  if (conn_) PQfinish(conn_);
  conn_ = nullptr;
  backoff_ = std::min(kMaxBackoff, std::max(kFirstBackoff, backoff_ * 2));
  next_attempt_ = Clock::now() + backoff_;
}

std::string PostgresConnection::Unreachable() const {
  auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next_attempt_ - Clock::now());
  return who_ + ": " + where_ + " is unavailable (" + last_error_ +
         "); next connection attempt in " + std::to_string(std::max<int64_t>(0, wait.count())) +
         " ms";
}

Status PostgresConnection::Migrate() {
  const char* what = "migrate";
  STRUCTURE_RETURN_IF_ERROR(Query("BEGIN", PgParams(), what).status());
  auto body = [&]() -> Status {
    STRUCTURE_RETURN_IF_ERROR(
        Query("SELECT pg_advisory_xact_lock($1)", PgParams().Int(kMigrationLockKey), what)
            .status());
    STRUCTURE_RETURN_IF_ERROR(Query(kMigrationsTable, PgParams(), what).status());
    auto current = Query("SELECT COALESCE(MAX(version), 0)::BIGINT FROM structure_migrations",
                         PgParams(), what);
    if (!current.ok()) return current.status();
    int64_t found = PgInt(current->get(), 0, 0);
    STRUCTURE_RETURN_IF_ERROR(CheckStoreVersion(found, "the " + where_));
    for (const Migration& m : StoreMigrations()) {
      if (m.version <= found) continue;
      for (const std::string& sql : m.postgres) {
        STRUCTURE_RETURN_IF_ERROR(Query(sql, PgParams(), what).status());
      }
      STRUCTURE_RETURN_IF_ERROR(
          Query("INSERT INTO structure_migrations (version, applied_at_ms) VALUES ($1, $2)",
                PgParams().Int(m.version).Int(UnixNowMs()), what)
              .status());
    }
    return Status::Ok();
  };
  Status s = body();
  if (!s.ok()) {
    Rollback();
    return s;
  }
  return Query("COMMIT", PgParams(), what).status();
}

}  // namespace structure::registry
