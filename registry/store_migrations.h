// The versioned layout of the store's tables. Each migration is applied once, in order, at
// open, and recorded in the table structure_migrations; PostgreSQL runs them under an advisory
// lock so replicas starting together migrate once. A database recording a version this binary
// does not know was written by a newer binary and is refused.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "structure/status.h"

namespace structure::registry {

struct Migration {
  int64_t version;
  std::vector<std::string> sqlite;    // statements, in order
  std::vector<std::string> postgres;  // the same in PostgreSQL's dialect
};

// Every migration, oldest first; versions are 1, 2, ... without gaps.
const std::vector<Migration>& StoreMigrations();

// The newest version this binary knows.
int64_t LatestStoreVersion();

// kFailedPrecondition, saying what to do, when `found` (the database's newest recorded
// migration) is newer than this binary; `where` names the database.
Status CheckStoreVersion(int64_t found, const std::string& where);

// The key of PostgreSQL's advisory lock held while migrating (any constant other tools do not
// use: "structur" in ASCII).
inline constexpr int64_t kMigrationLockKey = 0x7374727563747572;

inline constexpr char kMigrationsTable[] =
    "CREATE TABLE IF NOT EXISTS structure_migrations ("
    "  version BIGINT PRIMARY KEY,"
    "  applied_at_ms BIGINT NOT NULL)";

}  // namespace structure::registry
