#include "registry/schema_store.h"

#include "config/database_url.h"
#include "registry/postgres_schema_store.h"
#include "registry/sqlite_schema_store.h"

namespace structure::registry {

Result<std::unique_ptr<SchemaStore>> SchemaStore::Open(const std::string& location) {
  if (config::IsPostgresUrl(location)) {
    Status url = config::CheckPostgresUrl(location);
    if (!url.ok()) return InvalidArgument("registry store: " + url.message());
    return OpenPostgresSchemaStore(location);
  }
  return OpenSqliteSchemaStore(location);
}

}  // namespace structure::registry
