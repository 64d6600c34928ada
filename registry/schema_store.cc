#include "registry/schema_store.h"

#include "registry/database_url.h"
#include "registry/postgres_schema_store.h"
#include "registry/sqlite_schema_store.h"

namespace structure::registry {

Result<std::unique_ptr<SchemaStore>> SchemaStore::Open(const std::string& location) {
  if (IsPostgresUrl(location)) {
    STRUCTURE_RETURN_IF_ERROR(CheckPostgresUrl(location, "registry store"));
    return OpenPostgresSchemaStore(location);
  }
  return OpenSqliteSchemaStore(location);
}

}  // namespace structure::registry
