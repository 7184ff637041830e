#pragma once
// The raw SQLite baseline: the rows the sqlite backend commits for the
// benchmark's program, inserted with the sqlite3 C API in the same
// transactions (one per host call, one per delivery), same WAL mode and
// synchronous setting, on the same file system, with nothing of Herald
// around them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "load.hpp"

namespace sqlbench {

// The rows to insert, copied from a database the backend wrote
// (herald_sample_database): each has the columns and the values (so the
// sizes) the backend stores; ids, positions and sequences are varied.
struct RowTemplates {
  // A `log` row.
  std::string context;
  std::string event_id;
  std::string event_type;
  std::string publisher;
  std::int64_t schema_version = 0;
  std::optional<std::string> causation_id;
  std::int64_t depth = 0;
  std::string payload;
  // The publisher's `agent_state` row.
  std::string agent_kind;
  std::string agent_key;
  std::int64_t state_version = 0;
  std::string state;
  // Per subscription, its name in `cursor` and the publisher it records.
  std::vector<std::string> subscriptions;
  std::string cursor_publisher;
};

RowTemplates read_row_templates(const std::string& db);

// The SQLite library's version, which both sides use.
std::string sqlite_version();

struct RawThroughput {
  std::int64_t events = 0;
  double events_per_s = 0;
  std::int64_t transactions = 0;
};

// For load.seconds: per host call one transaction of the agent_state row
// and load.events_per_commit log rows, then per event and subscription one
// transaction of one dedup row. The database `db` is created fresh.
RawThroughput raw_throughput(const Load& load, const RowTemplates& rows,
                             const std::string& db);

}  // namespace sqlbench
