// The sqlite backend's subscription store: the transport's records of one
// subscription (cursor, pending_attempt, dead_letter).
#include <algorithm>

#include "sqlite_backend.hpp"

namespace herald::sqlite_detail {

namespace {

DeadLetter stored_letter(SQLite::Statement& s, const std::string& name) {
  DeadLetter letter;
  letter.subscription = name;
  letter.event =
      decode_stored_event(stored_event(s, 1, s.getColumn(0).getInt64()));
  letter.attempts = static_cast<std::uint32_t>(s.getColumn(11).getInt64());
  letter.last_error = s.getColumn(12).getString();
  letter.first_attempt_at = from_stored_time(s.getColumn(13).getInt64());
  letter.last_attempt_at = from_stored_time(s.getColumn(14).getInt64());
  letter.dead_lettered_at = from_stored_time(s.getColumn(15).getInt64());
  letter.redriving = s.getColumn(16).getInt64() != 0;
  letter.policy = s.getColumn(17).getInt64() != 0 ? DeadLetterPolicy::halt
                                                  : DeadLetterPolicy::skip;
  return letter;
}

// The `halts` column of a letter written under `policy`.
int halts(DeadLetterPolicy policy) {
  switch (policy) {
    case DeadLetterPolicy::skip:
      return 0;
    case DeadLetterPolicy::halt:
      return 1;
  }
  return 0;
}

}  // namespace

bool SqliteSubscriptionStore::recorded(std::string_view publisher,
                                       std::int64_t sequence) {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().cursor_get);
  q->bind(1, name_);
  q->bind(2, text(publisher));
  return q->executeStep() && sequence <= q->getColumn(0).getInt64();
}

std::int64_t SqliteSubscriptionStore::acknowledged(std::string_view publisher) {
  std::lock_guard lock(backend_.mutex());
  std::int64_t stored = 0;
  {
    Use q(backend_.sql().cursor_get);
    q->bind(1, name_);
    q->bind(2, text(publisher));
    if (q->executeStep()) stored = q->getColumn(1).getInt64();
  }
  auto held = held_.find(publisher);
  return held == held_.end() ? stored : std::max(stored, held->second);
}

void SqliteSubscriptionStore::acknowledge(std::string_view publisher,
                                          std::int64_t sequence,
                                          std::int64_t position) {
  std::lock_guard lock(backend_.mutex());
  const bool first = held_.empty() && held_position_ == 0;
  auto held = held_.find(publisher);
  if (held == held_.end()) {
    held_.emplace(std::string(publisher), sequence);
  } else {
    held->second = std::max(held->second, sequence);
  }
  held_position_ = std::max(held_position_, position);
  backend_.hold(*this, first);
}

void SqliteSubscriptionStore::write_acknowledgements(Statements& sql) {
  for (const auto& [publisher, sequence] : held_) {
    Use q(sql.cursor_ack);
    q->bind(1, name_);
    q->bind(2, publisher);
    q->bind(3, sequence);
    q->exec();
  }
  Use q(sql.subscription_ack);
  q->bind(1, name_);
  q->bind(2, held_position_);
  q->exec();
}

void SqliteSubscriptionStore::acknowledgements_written() noexcept {
  held_.clear();
  held_position_ = 0;
}

void SqliteSubscriptionStore::write_settled(Statements& sql,
                                            const std::string& context,
                                            std::int64_t position) {
  if (context_ != context) return;
  Use q(sql.subscription_ack);
  q->bind(1, name_);
  q->bind(2, position);
  q->exec();
}

std::int64_t SqliteSubscriptionStore::start_position(std::string_view context,
                                                     std::int64_t start_if_new,
                                                     Instant now) {
  std::lock_guard lock(backend_.mutex());
  context_ = std::string(context);
  {
    Use q(backend_.sql().subscription_insert);
    q->bind(1, name_);
    q->bind(2, text(context));
    q->bind(3, start_if_new);
    q->bind(4, to_stored_time(now));
    q->exec();
  }
  Use q(backend_.sql().subscription_get);
  q->bind(1, name_);
  q->executeStep();
  return q->getColumn(0).getInt64();
}

std::int64_t SqliteSubscriptionStore::acked_position() {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().subscription_get);
  q->bind(1, name_);
  const std::int64_t stored = q->executeStep() ? q->getColumn(1).getInt64() : 0;
  return std::max(stored, held_position_);
}

void SqliteSubscriptionStore::record_attempt(std::int64_t position,
                                             PendingAttempt attempt) {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().attempt_put);
  q->bind(1, name_);
  q->bind(2, position);
  q->bind(3, attempt.attempts);
  q->bind(4, attempt.last_error);
  q->bind(5, to_stored_time(attempt.first_attempt_at));
  q->bind(6, to_stored_time(attempt.retry_at));
  q->exec();
}

std::optional<PendingAttempt> SqliteSubscriptionStore::pending_attempt(
    std::int64_t position) {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().attempt_get);
  q->bind(1, name_);
  q->bind(2, position);
  if (!q->executeStep()) return std::nullopt;
  return PendingAttempt{static_cast<std::uint32_t>(q->getColumn(0).getInt64()),
                        q->getColumn(1).getString(),
                        from_stored_time(q->getColumn(2).getInt64()),
                        from_stored_time(q->getColumn(3).getInt64())};
}

void SqliteSubscriptionStore::dead_letter(DeadLetter letter) {
  const LogEntry& entry = *letter.event;
  const EventEnvelope& env = entry.envelope;
  const std::string id = env.eventId.str();
  const std::string payload = stored_payload(entry);
  std::lock_guard lock(backend_.mutex());
  Statements& sql = backend_.sql();
  WriteTransaction tx(backend_.sql());
  {
    Use q(sql.cursor_settle);
    q->bind(1, name_);
    q->bind(2, text(env.publisherId));
    q->bind(3, env.sequence);
    q->exec();
  }
  {
    Use q(sql.subscription_ack);
    q->bind(1, name_);
    q->bind(2, entry.position);
    q->exec();
  }
  {
    Use q(sql.attempt_delete);
    q->bind(1, name_);
    q->bind(2, entry.position);
    q->exec();
  }
  {
    Use q(sql.letter_delete);
    q->bind(1, name_);
    q->bind(2, id);
    q->exec();
  }
  {
    Use q(sql.letter_insert);
    q->bind(1, name_);
    q->bind(2, id);
    q->bind(3, entry.type != nullptr ? entry.type->owner() : std::string());
    q->bind(4, entry.position);
    q->bind(5, text(env.eventType));
    q->bind(6, text(env.publisherId));
    q->bind(7, env.sequence);
    q->bind(8, to_stored_time(env.emittedAt));
    q->bind(9, env.schemaVersion);
    bind_optional_id(sql.letter_insert, 10, env.causationId);
    q->bind(11, env.correlationId.str());
    q->bind(12, env.depth);
    q->bind(13, payload);
    q->bind(14, letter.attempts);
    q->bind(15, letter.last_error);
    q->bind(16, to_stored_time(letter.first_attempt_at));
    q->bind(17, to_stored_time(letter.last_attempt_at));
    q->bind(18, to_stored_time(letter.dead_lettered_at));
    q->bind(19, letter.redriving ? 1 : 0);
    q->bind(20, halts(letter.policy));
    q->exec();
  }
  tx.commit();
}

std::vector<DeadLetter> SqliteSubscriptionStore::dead_letters() {
  std::lock_guard lock(backend_.mutex());
  SQLite::Statement& s = backend_.sql().letters_all;
  Use q(s);
  q->bind(1, name_);
  std::vector<DeadLetter> all;
  while (q->executeStep()) all.push_back(stored_letter(s, name_));
  return all;
}

std::optional<DeadLetter> SqliteSubscriptionStore::find_dead_letter(
    const EventId& id) {
  std::lock_guard lock(backend_.mutex());
  SQLite::Statement& s = backend_.sql().letter_find;
  Use q(s);
  q->bind(1, name_);
  q->bind(2, id.str());
  if (!q->executeStep()) return std::nullopt;
  return stored_letter(s, name_);
}

bool SqliteSubscriptionStore::mark_redriving(const EventId& id) {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().letter_mark);
  q->bind(1, name_);
  q->bind(2, id.str());
  return q->exec() > 0;
}

void SqliteSubscriptionStore::update_dead_letter(DeadLetter letter) {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().letter_update);
  q->bind(1, name_);
  q->bind(2, letter.event->envelope.eventId.str());
  q->bind(3, letter.attempts);
  q->bind(4, letter.last_error);
  q->bind(5, to_stored_time(letter.first_attempt_at));
  q->bind(6, to_stored_time(letter.last_attempt_at));
  q->bind(7, to_stored_time(letter.dead_lettered_at));
  q->bind(8, letter.redriving ? 1 : 0);
  q->bind(9, halts(letter.policy));
  q->exec();
}

}  // namespace herald::sqlite_detail
