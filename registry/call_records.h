// The console's call records in the fleet's database: what its recent calls, evidence view and
// insights read, written by every replica, so each replica's console lists every call. Plain
// storage: the record's JSON is the server's (server/console/recent_calls.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "structure/status.h"

namespace structure::registry {

struct CallRecord {
  int64_t id = 0;  // assigned by the store on insert: 1, 2, ... across the fleet
  int64_t at_ms = 0;
  std::string tenant;
  std::string project;
  std::string schema;     // the metrics label
  bool evidence = false;  // the call has grounded or ungrounded fields
  std::string summary;    // JSON text: the call's summary
  std::string detail;     // JSON text {"prompt","result"} when the server keeps prompts, else ""
};

struct CallRecordQuery {
  std::string tenant;
  std::vector<std::string> projects;  // those visible; empty or "*" = every project
  std::string schema;                 // "" = any
  bool evidence_only = false;
  size_t limit = 100;
};

// Thread-safe. Errors: kUnavailable when the database cannot be reached, kInternal otherwise.
class CallRecordStore {
 public:
  virtual ~CallRecordStore() = default;
  // Inserts every record in one transaction (all or none).
  virtual Status Insert(const std::vector<CallRecord>& records) = 0;
  // Newest first.
  virtual Result<std::vector<CallRecord>> List(const CallRecordQuery& query) const = 0;
  virtual Result<std::optional<CallRecord>> Get(int64_t id) const = 0;
  // Deletes the records older than `before_ms` and all but the newest `keep_rows`; how many.
  virtual Result<int64_t> Prune(int64_t before_ms, int64_t keep_rows) = 0;
};

// The records in PostgreSQL (`url` as for the schema store; migrations applied).
Result<std::unique_ptr<CallRecordStore>> OpenPostgresCallRecords(const std::string& url);

}  // namespace structure::registry
