// The operator's status: where every subscription stands, agents, logs and
// agent messages (herald/sqlite_operator.hpp).
#include <algorithm>
#include <map>

#include "operator_database.hpp"
#include "stored_entry.hpp"
#include <SQLiteCpp/Statement.h>

namespace herald::sqlite_detail {
namespace {

// A context's head: the larger of its floor and its highest logged
// position (runtime/docs/sqlite-schema.md), as the backend reads it.
std::int64_t head_of(Statements& sql, const std::string& context) {
  Use q(sql.log_head);
  q->bind(1, context);
  return q->executeStep() ? q->getColumn(0).getInt64() : 0;
}

std::int64_t retained_of(Statements& sql, const std::string& context) {
  Use q(sql.log_size);
  q->bind(1, context);
  return q->executeStep() ? q->getColumn(0).getInt64() : 0;
}

std::vector<op::LogStatus> logs(OperatorDatabase& db) {
  // Every context with a head floor or a retained row.
  SQLite::Statement contexts(db.db(),
                             "SELECT context FROM log_head UNION SELECT "
                             "DISTINCT context FROM log ORDER BY context");
  SQLite::Statement oldest(db.db(),
                           "SELECT position, emitted_at FROM log WHERE "
                           "context = ?1 ORDER BY position LIMIT 1");
  // The rows of the event types the log's last truncation kept because its
  // build did not know them (herald_meta, sqlite_statements.hpp).
  SQLite::Statement unknown(
      db.db(),
      "SELECT event_type, count(*) FROM log WHERE context = ?1 AND "
      "event_type IN (SELECT j.value FROM herald_meta m, json_each(m.value) j "
      "WHERE m.key = ?2) GROUP BY event_type ORDER BY event_type");
  std::vector<op::LogStatus> out;
  while (contexts.executeStep()) {
    op::LogStatus row;
    row.context = contexts.getColumn(0).getString();
    row.head = head_of(db.sql(), row.context);
    row.retained = retained_of(db.sql(), row.context);
    oldest.bind(1, row.context);
    if (oldest.executeStep()) {
      row.oldest_position = oldest.getColumn(0).getInt64();
      row.oldest_emitted_at = from_stored_time(oldest.getColumn(1).getInt64());
    }
    oldest.reset();
    unknown.bind(1, row.context);
    unknown.bind(2, unknown_types_key(row.context));
    while (unknown.executeStep())
      row.unknown_types.push_back(
          {unknown.getColumn(0).getString(), unknown.getColumn(1).getInt64()});
    unknown.reset();
    out.push_back(std::move(row));
  }
  return out;
}

// Where a subscription's recovery resumes: the position of the newest
// retained entry it committed or acknowledged, per publisher (a commit's
// dedup record is written with the delivery, its acknowledgement later, so
// after a crash the commits are ahead), or its acked_position when that is
// higher (acknowledgements and settled entries: delivered, dead-lettered,
// filtered out or not routed).
std::int64_t recovered_position(SQLite::Statement& cursors,
                                const std::string& subscription,
                                const std::string& context,
                                std::int64_t acked_position) {
  cursors.bind(1, subscription);
  cursors.bind(2, context);
  std::int64_t position = acked_position;
  if (cursors.executeStep())
    position = std::max(position, cursors.getColumn(0).getInt64());
  cursors.reset();
  return position;
}

std::vector<op::SubscriptionStatus> subscriptions(OperatorDatabase& db) {
  SQLite::Statement q(db.db(), R"(
    SELECT s.name, s.context, s.acked_position,
           (SELECT count(*) FROM pending_attempt p WHERE p.subscription = s.name),
           (SELECT count(*) FROM dead_letter d WHERE d.subscription = s.name),
           (SELECT count(*) FROM dead_letter d
             WHERE d.subscription = s.name AND d.redriving = 1)
      FROM subscription s ORDER BY s.name)");
  SQLite::Statement cursors(db.db(), R"(
    SELECT coalesce(max(l.position), 0) FROM cursor c JOIN log l
        ON l.context = ?2 AND l.publisher = c.publisher
       AND l.sequence = max(c.committed, c.acknowledged)
     WHERE c.subscription = ?1)");
  std::map<std::string, std::int64_t> heads;
  std::vector<op::SubscriptionStatus> out;
  while (q.executeStep()) {
    op::SubscriptionStatus row;
    row.name = q.getColumn(0).getString();
    row.context = q.getColumn(1).getString();
    row.position = recovered_position(cursors, row.name, row.context,
                                      q.getColumn(2).getInt64());
    auto head = heads.find(row.context);
    if (head == heads.end())
      head = heads.emplace(row.context, head_of(db.sql(), row.context)).first;
    row.lag = std::max<std::int64_t>(0, head->second - row.position);
    row.retrying = q.getColumn(3).getInt64();
    row.dead_letters = q.getColumn(4).getInt64();
    row.redriving = q.getColumn(5).getInt64();
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace

op::Status read_status(OperatorDatabase& db) {
  op::Status status;
  status.path = db.path();
  status.schema_version = db.schema_version();
  {
    SQLite::Statement meta(
        db.db(), "SELECT value FROM herald_meta WHERE key = 'runtime_version'");
    if (meta.executeStep())
      status.runtime_version = meta.getColumn(0).getString();
  }
  status.subscriptions = subscriptions(db);
  SQLite::Statement agents(
      db.db(),
      "SELECT kind, count(*) FROM agent_state GROUP BY kind ORDER BY kind");
  while (agents.executeStep())
    status.agents.push_back(
        {agents.getColumn(0).getString(), agents.getColumn(1).getInt64()});
  status.logs = logs(db);
  status.pending_messages =
      db.db().execAndGet("SELECT count(*) FROM agent_message").getInt64();
  SQLite::Statement pending(db.db(),
                            "SELECT agent_kind, count(*) FROM agent_message "
                            "GROUP BY agent_kind ORDER BY agent_kind");
  while (pending.executeStep())
    status.pending_by_kind.push_back(
        {pending.getColumn(0).getString(), pending.getColumn(1).getInt64()});
  status.dead_messages =
      db.db().execAndGet("SELECT count(*) FROM dead_message").getInt64();
  SQLite::Statement marks(db.db(),
                          "SELECT substr(key, 11), CAST(value AS INTEGER) FROM "
                          "herald_meta WHERE key LIKE 'transport.%' ORDER BY "
                          "key");
  while (marks.executeStep())
    status.transport_marks.push_back(
        {marks.getColumn(0).getString(), marks.getColumn(1).getInt64()});
  return status;
}

}  // namespace herald::sqlite_detail
