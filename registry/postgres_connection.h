// One libpq connection to the fleet's PostgreSQL database, shared by the stores there (schema
// store, call records): bounded connect (5 s) and statements (10 s), reconnect with backoff
// (0.1 s doubling to 5 s, kUnavailable at once meanwhile), binary parameters and results, and
// the migrations (store_migrations.h) under an advisory lock. Not thread-safe by itself: its
// users hold mu() around every call.
#pragma once

#include <libpq-fe.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "structure/status.h"

namespace structure::registry {

// Statement parameters, sent in binary form.
class PgParams {
 public:
  PgParams& Text(std::string_view v);
  PgParams& Bytes(std::string_view v);
  PgParams& Int(int64_t v);
  PgParams& Bool(bool v);
  int size() const { return static_cast<int>(values_.size()); }
  const Oid* types() const { return types_.data(); }
  std::vector<const char*> values() const;
  std::vector<int> lengths() const;

 private:
  PgParams& Add(std::string value, Oid type);
  std::vector<std::string> values_;
  std::vector<Oid> types_;
};

struct PgResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using PgResult = std::unique_ptr<PGresult, PgResultDeleter>;

// Fields of a binary result.
std::string PgBytes(const PGresult* r, int row, int col);
int64_t PgInt(const PGresult* r, int row, int col);

class PostgresConnection {
 public:
  // `who` starts every message ("registry store").
  PostgresConnection(std::string url, std::string who);
  ~PostgresConnection();
  PostgresConnection(const PostgresConnection&) = delete;
  PostgresConnection& operator=(const PostgresConnection&) = delete;

  std::mutex& mu() const { return mu_; }

  // mu() held. Connects (no backoff: the error is returned) and applies the migrations.
  Status Open();

  // mu() held. Runs `op` (which calls Query) on a connection, connecting when the backoff
  // allows; when the connection it used turned out lost (the server restarted since), once
  // more on a fresh one. Only for operations that are safe to repeat.
  template <typename Op>
  Status Retrying(Op op) {
    bool fresh = conn_ == nullptr;
    STRUCTURE_RETURN_IF_ERROR(EnsureConnected());
    Status s = op();
    if (s.ok() || fresh || conn_ != nullptr) return s;
    next_attempt_ = std::chrono::steady_clock::now();  // the old one died: a new one at once
    STRUCTURE_RETURN_IF_ERROR(EnsureConnected());
    return op();
  }

  // mu() held. kUnavailable when not connected (or the connection breaks: it is dropped) or
  // for a transient SQLSTATE; kInternal for other errors.
  Result<PgResult> Query(const std::string& sql, const PgParams& params, const char* what);

  // mu() held. ROLLBACK, when connected (after a failed transaction).
  void Rollback();

  // mu() held. Whether a connection is open now.
  bool connected() const { return conn_ != nullptr; }
  // "PostgreSQL database postgresql://user@host:port/db".
  const std::string& where() const { return where_; }

 private:
  Status EnsureConnected();
  Status Connect();
  void Drop();
  std::string Unreachable() const;
  Status Migrate();

  const std::string url_;
  const std::string who_;
  const std::string where_;
  mutable std::mutex mu_;
  // Guarded by mu_.
  PGconn* conn_ = nullptr;
  std::chrono::steady_clock::time_point next_attempt_{};
  std::chrono::milliseconds backoff_{0};
  std::string last_error_;
};

}  // namespace structure::registry
