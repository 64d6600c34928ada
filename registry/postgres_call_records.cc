#include <mutex>
#include <utility>

#include "registry/call_records.h"
#include "registry/postgres_connection.h"

namespace structure::registry {
namespace {

constexpr char kColumns[] =
    "SELECT id, at_ms, tenant, project, schema, evidence, summary, detail FROM call_records ";

CallRecord ReadRecord(const PGresult* r, int row) {
  CallRecord c;
  c.id = PgInt(r, row, 0);
  c.at_ms = PgInt(r, row, 1);
  c.tenant = PgBytes(r, row, 2);
  c.project = PgBytes(r, row, 3);
  c.schema = PgBytes(r, row, 4);
  c.evidence = PgBytes(r, row, 5) == std::string(1, '\1');
  c.summary = PgBytes(r, row, 6);
  c.detail = PgBytes(r, row, 7);
  return c;
}

// A text[] literal's element ("a" quoted, \ and " escaped).
std::string ArrayLiteral(const std::vector<std::string>& items) {
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    out += '"';
    for (char ch : items[i]) {
      if (ch == '"' || ch == '\\') out += '\\';
      out += ch;
    }
    out += '"';
  }
  return out + "}";
}

class PostgresCallRecords final : public CallRecordStore {
 public:
  explicit PostgresCallRecords(std::string url) : db_(std::move(url), "call records") {}

  Status Start() {
    std::lock_guard<std::mutex> lock(db_.mu());
    return db_.Open();
  }

  Status Insert(const std::vector<CallRecord>& records) override {
    if (records.empty()) return Status::Ok();
    std::lock_guard<std::mutex> lock(db_.mu());
    STRUCTURE_RETURN_IF_ERROR(
        db_.Retrying([&] { return db_.Query("BEGIN", PgParams(), "insert").status(); }));
    for (const CallRecord& c : records) {
      Status s = db_.Query(
                        "INSERT INTO call_records (at_ms, tenant, project, schema, evidence, "
                        "summary, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                        PgParams()
                            .Int(c.at_ms)
                            .Text(c.tenant)
                            .Text(c.project)
                            .Bytes(c.schema)
                            .Bool(c.evidence)
                            .Bytes(c.summary)
                            .Bytes(c.detail),
                        "insert")
                     .status();
      if (!s.ok()) {
        db_.Rollback();
        return s;
      }
    }
    return db_.Query("COMMIT", PgParams(), "insert").status();
  }

  Result<std::vector<CallRecord>> List(const CallRecordQuery& q) const override {
    bool all_projects = q.projects.empty();
    for (const std::string& p : q.projects) all_projects = all_projects || p == "*";
    std::string sql =
        std::string(kColumns) +
        "WHERE tenant = $1 AND ($2 OR project = ANY($3::text[])) AND ($4 = ''::bytea "
        "OR schema = $4) AND (NOT $5 OR evidence) ORDER BY at_ms DESC, id DESC LIMIT $6";
    PgParams params;
    params.Text(q.tenant)
        .Bool(all_projects)
        .Text(ArrayLiteral(q.projects))
        .Bytes(q.schema)
        .Bool(q.evidence_only)
        .Int(static_cast<int64_t>(q.limit));
    std::lock_guard<std::mutex> lock(db_.mu());
    std::vector<CallRecord> out;
    Status s = db_.Retrying([&]() -> Status {
      auto r = db_.Query(sql, params, "list");
      if (!r.ok()) return r.status();
      out.clear();
      for (int i = 0; i < PQntuples(r->get()); ++i) out.push_back(ReadRecord(r->get(), i));
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return out;
  }

  Result<std::optional<CallRecord>> Get(int64_t id) const override {
    std::lock_guard<std::mutex> lock(db_.mu());
    std::optional<CallRecord> out;
    Status s = db_.Retrying([&]() -> Status {
      auto r = db_.Query(std::string(kColumns) + "WHERE id = $1", PgParams().Int(id), "get");
      if (!r.ok()) return r.status();
      out.reset();
      if (PQntuples(r->get()) > 0) out = ReadRecord(r->get(), 0);
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return out;
  }

  Result<int64_t> Prune(int64_t before_ms, int64_t keep_rows) override {
    std::lock_guard<std::mutex> lock(db_.mu());
    int64_t removed = 0;
    Status s = db_.Retrying([&]() -> Status {
      auto r = db_.Query(
          "DELETE FROM call_records WHERE at_ms < $1 OR id <= (SELECT MAX(id) FROM "
          "call_records) - $2",
          PgParams().Int(before_ms).Int(keep_rows), "prune");
      if (!r.ok()) return r.status();
      removed = std::stoll(PQcmdTuples(r->get()));
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return removed;
  }

 private:
  mutable PostgresConnection db_;
};

}  // namespace

Result<std::unique_ptr<CallRecordStore>> OpenPostgresCallRecords(const std::string& url) {
  auto store = std::make_unique<PostgresCallRecords>(url);
  STRUCTURE_RETURN_IF_ERROR(store->Start());
  return std::unique_ptr<CallRecordStore>(std::move(store));
}

}  // namespace structure::registry
