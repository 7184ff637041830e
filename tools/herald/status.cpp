#include "tools/herald/status.hpp"

#include <chrono>

#include "tools/herald/database.hpp"
#include <SQLiteCpp/Statement.h>

namespace herald::tool {

Status read_status(Database& db) {
  Status status;
  status.path = db.path();
  status.schema_version = db.sql().execAndGet("PRAGMA user_version").getInt();
  {
    SQLite::Statement meta(
        db.sql(),
        "SELECT value FROM herald_meta WHERE key = 'runtime_version'");
    if (meta.executeStep())
      status.runtime_version = meta.getColumn(0).getString();
  }
  SQLite::Statement subscriptions(db.sql(), R"(
    SELECT s.name, s.context, s.acked_position,
           max(coalesce((SELECT head FROM log_head h
                          WHERE h.context = s.context), 0),
               coalesce((SELECT max(position) FROM log l
                          WHERE l.context = s.context), 0)),
           (SELECT count(*) FROM pending_attempt p WHERE p.subscription = s.name),
           (SELECT count(*) FROM dead_letter d WHERE d.subscription = s.name),
           (SELECT count(*) FROM dead_letter d
             WHERE d.subscription = s.name AND d.redriving = 1)
      FROM subscription s ORDER BY s.name)");
  while (subscriptions.executeStep()) {
    SubscriptionStatus row;
    row.name = subscriptions.getColumn(0).getString();
    row.context = subscriptions.getColumn(1).getString();
    row.position = subscriptions.getColumn(2).getInt64();
    row.lag = subscriptions.getColumn(3).getInt64() - row.position;
    row.retrying = subscriptions.getColumn(4).getInt64();
    row.dead_letters = subscriptions.getColumn(5).getInt64();
    row.redriving = subscriptions.getColumn(6).getInt64();
    status.subscriptions.push_back(std::move(row));
  }

  SQLite::Statement agents(
      db.sql(),
      "SELECT kind, count(*) FROM agent_state GROUP BY kind ORDER BY kind");
  while (agents.executeStep())
    status.agents.push_back(
        {agents.getColumn(0).getString(), agents.getColumn(1).getInt64()});

  // Every context with a head floor or a retained row; its head is the
  // larger of the two (runtime/docs/sqlite-schema.md).
  SQLite::Statement logs(db.sql(), R"(
    WITH contexts(context) AS (SELECT context FROM log_head
                               UNION SELECT DISTINCT context FROM log)
    SELECT c.context,
           max(coalesce((SELECT head FROM log_head h
                          WHERE h.context = c.context), 0),
               coalesce((SELECT max(position) FROM log l
                          WHERE l.context = c.context), 0)),
           (SELECT count(*) FROM log l WHERE l.context = c.context),
           o.position, o.emitted_at
      FROM contexts c
      LEFT JOIN log o ON o.context = c.context
                     AND o.position = (SELECT min(position) FROM log m
                                        WHERE m.context = c.context)
     ORDER BY c.context)");
  while (logs.executeStep()) {
    LogStatus row;
    row.context = logs.getColumn(0).getString();
    row.head = logs.getColumn(1).getInt64();
    row.retained = logs.getColumn(2).getInt64();
    if (!logs.getColumn(3).isNull()) {
      row.oldest_position = logs.getColumn(3).getInt64();
      row.oldest_emitted_at =
          Instant(std::chrono::nanoseconds(logs.getColumn(4).getInt64()));
    }
    status.logs.push_back(std::move(row));
  }

  status.pending_messages =
      db.sql().execAndGet("SELECT count(*) FROM agent_message").getInt64();
  status.dead_messages =
      db.sql().execAndGet("SELECT count(*) FROM dead_message").getInt64();
  return status;
}

}  // namespace herald::tool
