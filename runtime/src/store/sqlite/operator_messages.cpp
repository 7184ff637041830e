// The operator's dead agent messages: list and show them, and make them
// pending again (moved back to agent_message, which the program's next
// recovery posts as it posts every pending message).
#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "herald/nearest_name.hpp"
#include "operator_database.hpp"
#include "stored_entry.hpp"
#include <SQLiteCpp/Statement.h>

namespace herald::sqlite_detail {
namespace {

// A dead_message row: seq, then kMessageColumns, attempts, last_error,
// dead_lettered_at. The arguments stay text as stored.
op::DeadMessage operator_message(SQLite::Statement& q) {
  op::DeadMessage d;
  d.seq = q.getColumn(0).getInt64();
  d.id = q.getColumn(1).getString();
  d.agent_kind = q.getColumn(2).getString();
  d.agent_key = q.getColumn(3).getString();
  d.handler = q.getColumn(4).getString();
  d.args = q.getColumn(5).getString();
  d.causation_id = optional_text(q.getColumn(6));
  d.correlation_id = q.getColumn(7).getString();
  d.depth = q.getColumn(8).getInt64();
  d.attempts = q.getColumn(9).getInt64();
  d.last_error = q.getColumn(10).getString();
  d.dead_lettered_at = from_stored_time(q.getColumn(11).getInt64());
  return d;
}

std::vector<std::string> column_values(OperatorDatabase& db, const char* sql) {
  std::vector<std::string> values;
  SQLite::Statement q(db.db(), sql);
  while (q.executeStep()) values.push_back(q.getColumn(0).getString());
  return values;
}

}  // namespace

std::vector<op::DeadMessage> select_dead_messages(
    OperatorDatabase& db, const std::optional<std::string>& id,
    const std::optional<std::string>& agent_kind) {
  // ?1 and ?2 left NULL stand for "any".
  SQLite::Statement q(
      db.db(),
      fmt::format("SELECT seq, {}, attempts, last_error, dead_lettered_at "
                  "FROM dead_message WHERE (?1 IS NULL OR id = ?1) AND "
                  "(?2 IS NULL OR agent_kind = ?2) ORDER BY seq",
                  kMessageColumns));
  if (id) q.bind(1, *id);
  if (agent_kind) q.bind(2, *agent_kind);
  std::vector<op::DeadMessage> messages;
  while (q.executeStep()) messages.push_back(operator_message(q));
  return messages;
}

void require_agent_kind(OperatorDatabase& db, const std::string& kind) {
  const std::vector<std::string> kinds = column_values(
      db,
      "SELECT kind FROM agent_state UNION SELECT agent_kind FROM "
      "agent_message UNION SELECT agent_kind FROM dead_message ORDER BY 1");
  if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) return;
  const std::optional<std::string> near = nearest_name(kind, kinds);
  throw op::Refusal(
      fmt::format("{}: no agent kind '{}'{}", db.path(), kind,
                  near ? fmt::format("; did you mean '{}'?", *near) : ""));
}

void refuse_unknown_dead_message(OperatorDatabase& db, const std::string& id) {
  const std::vector<std::string> ids =
      column_values(db, "SELECT id FROM dead_message ORDER BY seq");
  const std::optional<std::string> near = nearest_name(id, ids);
  throw op::Refusal(
      fmt::format("no dead message {}{}", id,
                  near ? fmt::format("; did you mean {}?", *near) : ""));
}

op::MessageRedriveResult requeue_dead_messages(
    OperatorDatabase& db, const std::vector<op::DeadMessage>& messages,
    op::ProgressSink& progress) {
  op::MessageRedriveResult result;
  const std::int64_t now = to_stored_time(
      std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now()));
  WriteTransaction transaction(db.sql());
  // A fresh attempt count: the faults that used up the old one are what
  // the operator fixed (or a build with the agent kind runs again).
  SQLite::Statement requeue(
      db.db(),
      fmt::format("INSERT INTO agent_message({0}, attempts, created_at) "
                  "SELECT {0}, 0, ?2 FROM dead_message WHERE id = ?1",
                  kMessageColumns));
  SQLite::Statement remove(db.db(), "DELETE FROM dead_message WHERE id = ?1");
  progress.start("re-queueing dead messages",
                 static_cast<std::int64_t>(messages.size()));
  for (const op::DeadMessage& message : messages) {
    requeue.bind(1, message.id);
    requeue.bind(2, now);
    requeue.exec();
    requeue.reset();
    remove.bind(1, message.id);
    result.requeued += remove.exec();
    remove.reset();
    progress.advance(1);
  }
  transaction.commit();
  progress.finish();
  return result;
}

}  // namespace herald::sqlite_detail
