// The operator's dead letters: list and show them, and mark them for
// re-drive (redriving = 1, which the program's next recovery applies).
#include <fmt/format.h>

#include "herald/nearest_name.hpp"
#include "operator_database.hpp"
#include "stored_entry.hpp"
#include <SQLiteCpp/Statement.h>

namespace herald::sqlite_detail {
namespace {

// A letter row: id, subscription and context, then kLetterColumns.
op::DeadLetter operator_letter(SQLite::Statement& q) {
  op::DeadLetter d;
  d.id = q.getColumn(0).getInt64();
  d.subscription = q.getColumn(1).getString();
  d.context = q.getColumn(2).getString();
  StoredEvent event = stored_event(q, 4, q.getColumn(3).getInt64());
  d.position = event.position;
  d.event_id = std::move(event.event_id);
  d.event_type = std::move(event.event_type);
  d.publisher = std::move(event.publisher);
  d.sequence = event.sequence;
  d.emitted_at = from_stored_time(event.emitted_at);
  d.schema_version = event.schema_version;
  d.causation_id = std::move(event.causation_id);
  d.correlation_id = std::move(event.correlation_id);
  d.depth = event.depth;
  d.payload = std::move(event.payload);
  d.attempts = q.getColumn(14).getInt64();
  d.last_error = q.getColumn(15).getString();
  d.first_attempt_at = from_stored_time(q.getColumn(16).getInt64());
  d.last_attempt_at = from_stored_time(q.getColumn(17).getInt64());
  d.dead_lettered_at = from_stored_time(q.getColumn(18).getInt64());
  d.redriving = q.getColumn(19).getInt64() != 0;
  return d;
}

}  // namespace

void refuse_unknown_subscription(OperatorDatabase& db,
                                 const std::string& name) {
  std::vector<std::string> names;
  SQLite::Statement q(db.db(), "SELECT name FROM subscription ORDER BY name");
  while (q.executeStep()) names.push_back(q.getColumn(0).getString());
  const std::optional<std::string> near = nearest_name(name, names);
  throw op::Refusal(
      fmt::format("{}: no subscription '{}'{}", db.path(), name,
                  near ? fmt::format("; did you mean '{}'?", *near) : ""));
}

void require_subscription(OperatorDatabase& db, const std::string& name) {
  Use q(db.sql().subscription_get);
  q->bind(1, name);
  if (!q->executeStep()) refuse_unknown_subscription(db, name);
}

std::vector<op::DeadLetter> select_dead_letters(
    OperatorDatabase& db, const std::optional<std::string>& event_id,
    const std::optional<std::string>& subscription) {
  // ?1 and ?2 left NULL stand for "any".
  SQLite::Statement q(db.db(),
                      fmt::format("SELECT id, subscription, context, {} FROM "
                                  "dead_letter WHERE (?1 IS NULL OR event_id = "
                                  "?1) AND (?2 IS NULL OR subscription = ?2) "
                                  "ORDER BY id",
                                  kLetterColumns));
  if (event_id) q.bind(1, *event_id);
  if (subscription) q.bind(2, *subscription);
  std::vector<op::DeadLetter> letters;
  while (q.executeStep()) letters.push_back(operator_letter(q));
  return letters;
}

op::RedriveResult mark_for_redrive(OperatorDatabase& db,
                                   const std::vector<op::DeadLetter>& letters,
                                   op::ProgressSink& progress) {
  op::RedriveResult result;
  WriteTransaction transaction(db.sql());
  progress.start("marking dead letters",
                 static_cast<std::int64_t>(letters.size()));
  for (const op::DeadLetter& letter : letters) {
    // The backend's own mark: it changes only a letter not yet marked.
    Use mark(db.sql().letter_mark);
    mark->bind(1, letter.subscription);
    mark->bind(2, letter.event_id);
    if (mark->exec() > 0)
      ++result.marked;
    else
      ++result.already_marked;
    progress.advance(1);
  }
  transaction.commit();
  progress.finish();
  return result;
}

}  // namespace herald::sqlite_detail
