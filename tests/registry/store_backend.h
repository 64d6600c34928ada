// The store tests run against both implementations: a SQLite file in a temporary directory and
// a database of a private PostgreSQL server (tests/support/postgres_server.h) shared by the
// test binary. Each test gets a fresh, empty location.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <sqlite3.h>

#include "tests/registry/temp_dir.h"
#include "tests/support/postgres_server.h"

namespace structure::registry {

enum class Backend { kSqlite, kPostgres };

inline std::string BackendName(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::kSqlite ? "Sqlite" : "Postgres";
}

class StoreBackendTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (GetParam() == Backend::kSqlite) {
      location_ = dir_.Path("store.db");
      return;
    }
    testing::PostgresServer* server = testing::SharedPostgres();
    ASSERT_NE(server, nullptr);
    location_ = server->FreshUrl();
    ASSERT_FALSE(location_.empty());
  }

  // Runs `sql` on the test's database outside the store (a hand edit, another binary's
  // migration): "" on success, else the error.
  std::string RawExec(const std::string& sql) const {
    if (GetParam() == Backend::kPostgres) {
      return testing::SharedPostgres()->Exec(sql, location_);
    }
    sqlite3* db = nullptr;
    std::string error;
    if (sqlite3_open(location_.c_str(), &db) != SQLITE_OK) {
      error = sqlite3_errmsg(db);
    } else {
      char* err = nullptr;
      if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        error = err ? err : "error";
      }
      sqlite3_free(err);
    }
    sqlite3_close(db);
    return error;
  }

  TempDir dir_;
  std::string location_;  // a SQLite file or a PostgreSQL URL, empty at first
};

#define STORE_BACKENDS(Suite)                                                                    \
  INSTANTIATE_TEST_SUITE_P(Both, Suite, ::testing::Values(Backend::kSqlite, Backend::kPostgres), \
                           BackendName)

}  // namespace structure::registry
