#pragma once
// `herald status`: what a stopped program left in its database.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "herald/time.hpp"

namespace herald::tool {

class Database;

struct SubscriptionStatus {
  std::string name;
  std::string context;
  std::int64_t position = 0;  // acked_position
  std::int64_t lag = 0;       // the context's log head - position
  std::int64_t retrying = 0;  // rows in pending_attempt
  std::int64_t dead_letters = 0;
  std::int64_t redriving = 0;  // dead letters marked for re-drive
};

struct AgentKindStatus {
  std::string kind;
  std::int64_t instances = 0;
};

struct LogStatus {
  std::string context;
  std::int64_t head = 0;
  std::int64_t retained = 0;                    // rows still in `log`
  std::optional<std::int64_t> oldest_position;  // unset when none retained
  std::optional<Instant> oldest_emitted_at;
};

struct Status {
  std::string path;
  int schema_version = 0;                         // PRAGMA user_version
  std::optional<std::string> runtime_version;     // herald_meta's
  std::vector<SubscriptionStatus> subscriptions;  // by name
  std::vector<AgentKindStatus> agents;            // by kind
  std::vector<LogStatus> logs;                    // by context
  std::int64_t pending_messages = 0;              // agent_message rows
  std::int64_t dead_messages = 0;                 // dead_message rows
};

Status read_status(Database& db);

}  // namespace herald::tool
