#include "registry/postgres_schema_store.h"

#include <cstring>
#include <mutex>
#include <utility>

#include "registry/postgres_connection.h"

namespace structure::registry {
namespace {

constexpr int64_t kMaxHistory = 50;

// Columns: name, version, schema, manual, updated_at_ms, revision.
constexpr char kColumns[] =
    "SELECT s.name, s.version, s.schema, s.manual, s.updated_at_ms, "
    "(SELECT COALESCE(MAX(v.seq), 0) FROM registry_schema_versions v WHERE v.tenant = s.tenant "
    "AND v.project = s.project AND v.name = s.name) FROM registry_schemas s ";

StoredSchema ReadRow(const PGresult* r, int row) {
  StoredSchema out;
  out.name = PgBytes(r, row, 0);
  out.version = PgBytes(r, row, 1);
  out.schema = PgBytes(r, row, 2);
  out.manual = PgBytes(r, row, 3);
  out.updated_at_ms = PgInt(r, row, 4);
  out.revision = PgInt(r, row, 5);
  return out;
}

PgParams KeyParams(const StoreKey& key, std::string_view name) {
  PgParams p;
  p.Text(key.tenant).Text(key.project).Text(name);
  return p;
}

PgParams RowParams(const StoreKey& key, const StoredSchema& schema) {
  PgParams p = KeyParams(key, schema.name);
  p.Text(schema.version).Bytes(schema.schema).Bytes(schema.manual).Int(schema.updated_at_ms);
  return p;
}

class PostgresSchemaStore final : public SchemaStore {
 public:
  explicit PostgresSchemaStore(std::string url) : db_(std::move(url), "registry store") {}

  Status Start() {
    std::lock_guard<std::mutex> lock(db_.mu());
    return db_.Open();
  }

  Result<std::optional<StoredSchema>> Get(const StoreKey& key,
                                          std::string_view name) const override {
    std::lock_guard<std::mutex> lock(db_.mu());
    std::optional<StoredSchema> out;
    Status s = db_.Retrying([&]() -> Status {
      auto r = db_.Query(
          std::string(kColumns) + "WHERE s.tenant = $1 AND s.project = $2 AND s.name = $3",
          KeyParams(key, name), "get");
      if (!r.ok()) return r.status();
      out.reset();
      if (PQntuples(r->get()) > 0) out = ReadRow(r->get(), 0);
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return out;
  }

  Result<std::vector<StoredSchema>> List(const StoreKey& key) const override {
    std::lock_guard<std::mutex> lock(db_.mu());
    return Rows(std::string(kColumns) + "WHERE s.tenant = $1 AND s.project = $2 ORDER BY s.name",
                PgParams().Text(key.tenant).Text(key.project), "list");
  }

  Result<std::vector<StoredSchema>> History(const StoreKey& key,
                                            std::string_view name) const override {
    std::lock_guard<std::mutex> lock(db_.mu());
    return Rows(
        "SELECT name, version, schema, manual, updated_at_ms, seq FROM registry_schema_versions "
        "WHERE tenant = $1 AND project = $2 AND name = $3 ORDER BY seq DESC",
        KeyParams(key, name), "history");
  }

  Status Health() const override {
    std::lock_guard<std::mutex> lock(db_.mu());
    return db_.Retrying([&] { return db_.Query("SELECT 1", PgParams(), "health").status(); });
  }

  Status Delete(const StoreKey& key, std::string_view name) override {
    std::lock_guard<std::mutex> lock(db_.mu());
    bool deleted = false;
    Status s = db_.Retrying([&]() -> Status {
      auto r =
          db_.Query("DELETE FROM registry_schemas WHERE tenant = $1 AND project = $2 AND name = $3",
                    KeyParams(key, name), "delete");
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
    std::lock_guard<std::mutex> lock(db_.mu());
    // Only a failure of BEGIN is retried on a fresh connection: past it, the commit may have
    // happened and a second try could append the same put twice.
    STRUCTURE_RETURN_IF_ERROR(
        db_.Retrying([&] { return db_.Query("BEGIN", PgParams(), "put").status(); }));
    Status written = WriteInTransaction(key, schema, expect_revision);
    if (!written.ok()) {
      db_.Rollback();
      return written;
    }
    return db_.Query("COMMIT", PgParams(), "put").status();
  }

 private:
  Status WriteInTransaction(const StoreKey& key, const StoredSchema& schema,
                            std::optional<int64_t> expect_revision) {
    // One writer per (key, name) at a time, across every replica, until the commit.
    STRUCTURE_RETURN_IF_ERROR(
        db_.Query("SELECT pg_advisory_xact_lock(hashtextextended($1 || chr(31) || $2 || "
                  "chr(31) || $3, 0))",
                  KeyParams(key, schema.name), "put")
            .status());
    if (expect_revision) {
      auto current = db_.Query(
          std::string(kColumns) + "WHERE s.tenant = $1 AND s.project = $2 AND s.name = $3",
          KeyParams(key, schema.name), "put");
      if (!current.ok()) return current.status();
      int64_t revision = PQntuples(current->get()) > 0 ? ReadRow(current->get(), 0).revision : 0;
      if (revision != *expect_revision) {
        return Status(Code::kFailedPrecondition,
                      "stored schema \"" + schema.name + "\" changed meanwhile");
      }
    }
    STRUCTURE_RETURN_IF_ERROR(
        db_.Query("INSERT INTO registry_schemas (tenant, project, name, version, schema, manual, "
                  "updated_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (tenant, "
                  "project, name) DO UPDATE SET version = EXCLUDED.version, schema = "
                  "EXCLUDED.schema, manual = EXCLUDED.manual, updated_at_ms = "
                  "EXCLUDED.updated_at_ms",
                  RowParams(key, schema), "put")
            .status());
    STRUCTURE_RETURN_IF_ERROR(
        db_.Query("INSERT INTO registry_schema_versions (tenant, project, name, seq, version, "
                  "schema, manual, updated_at_ms) SELECT $1, $2, $3, COALESCE(MAX(seq), 0) + 1, "
                  "$4, $5, $6, $7 FROM registry_schema_versions WHERE tenant = $1 AND project = "
                  "$2 AND name = $3",
                  RowParams(key, schema), "put")
            .status());
    return db_
        .Query(
            "DELETE FROM registry_schema_versions WHERE tenant = $1 AND project = $2 AND "
            "name = $3 AND seq <= (SELECT MAX(seq) FROM registry_schema_versions WHERE "
            "tenant = $1 AND project = $2 AND name = $3) - $4",
            KeyParams(key, schema.name).Int(kMaxHistory), "put")
        .status();
  }

  // db_.mu() held.
  Result<std::vector<StoredSchema>> Rows(const std::string& sql, const PgParams& params,
                                         const char* what) const {
    std::vector<StoredSchema> rows;
    Status s = db_.Retrying([&]() -> Status {
      auto r = db_.Query(sql, params, what);
      if (!r.ok()) return r.status();
      rows.clear();
      for (int i = 0; i < PQntuples(r->get()); ++i) rows.push_back(ReadRow(r->get(), i));
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return rows;
  }

  mutable PostgresConnection db_;  // reads reconnect too
};

}  // namespace

Result<std::unique_ptr<SchemaStore>> OpenPostgresSchemaStore(const std::string& url) {
  auto store = std::make_unique<PostgresSchemaStore>(url);
  STRUCTURE_RETURN_IF_ERROR(store->Start());
  return std::unique_ptr<SchemaStore>(std::move(store));
}

}  // namespace structure::registry
