#include "tools/herald/dead_letters.hpp"

#include <chrono>

#include <fmt/format.h>

#include "tools/herald/database.hpp"
#include "tools/herald/errors.hpp"
#include "tools/herald/progress.hpp"
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

namespace herald::tool {
namespace {

constexpr const char* kColumns =
    "id, subscription, event_id, context, position, event_type, publisher, "
    "sequence, emitted_at, schema_version, causation_id, correlation_id, "
    "depth, payload, attempts, last_error, first_attempt_at, "
    "last_attempt_at, dead_lettered_at, redriving";

Instant instant(const SQLite::Column& column) {
  return Instant(std::chrono::nanoseconds(column.getInt64()));
}

DeadLetter read_letter(SQLite::Statement& q) {
  DeadLetter d;
  d.id = q.getColumn(0).getInt64();
  d.subscription = q.getColumn(1).getString();
  d.event_id = q.getColumn(2).getString();
  d.context = q.getColumn(3).getString();
  d.position = q.getColumn(4).getInt64();
  d.event_type = q.getColumn(5).getString();
  d.publisher = q.getColumn(6).getString();
  d.sequence = q.getColumn(7).getInt64();
  d.emitted_at = instant(q.getColumn(8));
  d.schema_version = q.getColumn(9).getInt64();
  if (!q.getColumn(10).isNull()) d.causation_id = q.getColumn(10).getString();
  d.correlation_id = q.getColumn(11).getString();
  d.depth = q.getColumn(12).getInt64();
  d.payload = q.getColumn(13).getString();
  d.attempts = q.getColumn(14).getInt64();
  d.last_error = q.getColumn(15).getString();
  d.first_attempt_at = instant(q.getColumn(16));
  d.last_attempt_at = instant(q.getColumn(17));
  d.dead_lettered_at = instant(q.getColumn(18));
  d.redriving = q.getColumn(19).getInt64() != 0;
  return d;
}

// The letters of one event, or of every event, optionally of one
// subscription: the WHERE clause binds ?1 (event id) and ?2 (subscription),
// either NULL for "any".
std::vector<DeadLetter> select_letters(
    Database& db, const std::optional<std::string>& event_id,
    const std::optional<std::string>& subscription) {
  SQLite::Statement q(db.sql(),
                      fmt::format("SELECT {} FROM dead_letter"
                                  " WHERE (?1 IS NULL OR event_id = ?1)"
                                  "   AND (?2 IS NULL OR subscription = ?2)"
                                  " ORDER BY id",
                                  kColumns));
  if (event_id) q.bind(1, *event_id);
  if (subscription) q.bind(2, *subscription);
  std::vector<DeadLetter> letters;
  while (q.executeStep()) letters.push_back(read_letter(q));
  return letters;
}

std::string no_letter(const std::string& event_id,
                      const std::optional<std::string>& subscription) {
  if (subscription)
    return fmt::format("subscription '{}' has no dead letter of event {}",
                       *subscription, event_id);
  return fmt::format("no dead letter of event {}", event_id);
}

RedriveResult mark(Database& db, const std::vector<DeadLetter>& letters,
                   Progress& progress) {
  RedriveResult result;
  SQLite::Transaction transaction(db.sql());
  SQLite::Statement update(db.sql(),
                           "UPDATE dead_letter SET redriving = 1 WHERE id = ?");
  progress.start("marking dead letters",
                 static_cast<std::int64_t>(letters.size()));
  for (const DeadLetter& letter : letters) {
    if (letter.redriving) {
      ++result.already_marked;
    } else {
      update.bind(1, letter.id);
      update.exec();
      update.reset();
      ++result.marked;
    }
    progress.advance(1);
  }
  transaction.commit();
  progress.finish();
  return result;
}

}  // namespace

void require_subscription(Database& db, const std::string& name) {
  SQLite::Statement q(db.sql(), "SELECT 1 FROM subscription WHERE name = ?");
  q.bind(1, name);
  if (!q.executeStep())
    throw Refusal(fmt::format("{}: no subscription '{}'", db.path(), name));
}

std::vector<DeadLetter> list_dead_letters(
    Database& db, const std::optional<std::string>& subscription) {
  if (subscription) require_subscription(db, *subscription);
  return select_letters(db, std::nullopt, subscription);
}

std::vector<DeadLetter> find_dead_letters(
    Database& db, const std::string& event_id,
    const std::optional<std::string>& subscription) {
  if (subscription) require_subscription(db, *subscription);
  std::vector<DeadLetter> letters = select_letters(db, event_id, subscription);
  if (letters.empty()) throw Refusal(no_letter(event_id, subscription));
  return letters;
}

RedriveResult redrive_dead_letter(
    Database& db, const std::string& event_id,
    const std::optional<std::string>& subscription) {
  Progress quiet = Progress::quiet();
  return mark(db, find_dead_letters(db, event_id, subscription), quiet);
}

RedriveResult redrive_all_dead_letters(
    Database& db, const std::optional<std::string>& subscription,
    Progress& progress) {
  return mark(db, list_dead_letters(db, subscription), progress);
}

}  // namespace herald::tool
