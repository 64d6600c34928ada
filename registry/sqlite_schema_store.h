// The schema store in a SQLite file (the embedded default for one machine).
#pragma once

#include <memory>
#include <string>

#include "registry/schema_store.h"

namespace structure::registry {

// One connection guarded by a mutex. The file may be shared with other stores of the engine
// (tables are prefixed "registry_"); it runs in WAL mode with a busy timeout so other
// connections to the same file can read meanwhile. Writes take the file's write lock first
// (BEGIN IMMEDIATE), so the revision check and the write are atomic across processes.
Result<std::unique_ptr<SchemaStore>> OpenSqliteSchemaStore(const std::string& path);

}  // namespace structure::registry
