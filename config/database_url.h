// The database setting (`stores.database`, --database): a SQLite file, ":memory:", or a
// PostgreSQL URL "postgresql://USER@HOST:PORT/DB" (also "postgres://"). The password never goes
// in the URL: libpq reads it from PGPASSWORD or ~/.pgpass (PGPASSFILE).
#pragma once

#include <string>
#include <string_view>

#include "structure/status.h"

namespace structure::config {

// True for "postgresql://..." and "postgres://..." (the schemes libpq accepts).
bool IsPostgresUrl(std::string_view location);

// kInvalidArgument when a PostgreSQL URL carries a password (in its user part or as a
// "password=" parameter); the message never repeats the password, and callers prefix the
// setting's name. Anything else libpq accepts is left to libpq (no host: the local socket).
Status CheckPostgresUrl(std::string_view url);

// The URL without its query string, for messages ("postgresql://app@db:5432/structure").
std::string DescribePostgresUrl(std::string_view url);

}  // namespace structure::config
