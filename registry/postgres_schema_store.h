// The schema store in PostgreSQL (libpq), shared by every replica of a fleet.
#pragma once

#include <memory>
#include <string>

#include "registry/schema_store.h"

namespace structure::registry {

// `url` is "postgresql://USER@HOST:PORT/DB" (database_url.h; the password comes from
// PGPASSWORD or ~/.pgpass). One connection guarded by a mutex; connecting is bounded (5 s) and
// so is every statement (10 s). A lost connection is reopened on a later call with backoff
// (0.1 s doubling to 5 s); meanwhile calls answer kUnavailable at once, naming the database.
// Writes lock the (key, name) for their transaction (an advisory lock), so the revision check
// and history order are total across replicas.
Result<std::unique_ptr<SchemaStore>> OpenPostgresSchemaStore(const std::string& url);

}  // namespace structure::registry
