// The operator's replay: lowers a subscription's cursors so that the
// program's next recovery re-queues its context's retained log from a
// sequence or a time (herald/sqlite_operator.hpp says what it changes).
#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "operator_database.hpp"
#include "stored_entry.hpp"
#include <SQLiteCpp/Statement.h>

namespace herald::sqlite_detail {
namespace {

struct Publisher {
  std::string id;
  std::int64_t last_sequence = 0;  // its floor or its highest logged one
};

// What `log` still holds of one publisher.
struct Retained {
  std::int64_t first_sequence = 0;  // 0: nothing retained
  std::int64_t first_position = 0;
  std::int64_t first_emitted_at = 0;
};

std::vector<Publisher> publishers_of(OperatorDatabase& db,
                                     const std::string& context) {
  // A publisher's last sequence: the larger of its floor and its highest
  // logged one (runtime/docs/sqlite-schema.md).
  SQLite::Statement q(db.db(), R"(
    SELECT publisher, max(sequence) FROM (
      SELECT publisher, sequence FROM publisher_sequence WHERE context = ?1
      UNION ALL
      SELECT publisher, max(sequence) FROM log WHERE context = ?1
       GROUP BY publisher)
     GROUP BY publisher ORDER BY publisher)");
  q.bind(1, context);
  std::vector<Publisher> publishers;
  while (q.executeStep())
    publishers.push_back(
        {q.getColumn(0).getString(), q.getColumn(1).getInt64()});
  return publishers;
}

Retained retained_of(OperatorDatabase& db, const std::string& context,
                     const std::string& publisher) {
  SQLite::Statement q(db.db(),
                      "SELECT sequence, position, emitted_at FROM log"
                      " WHERE context = ? AND publisher = ?"
                      " ORDER BY sequence LIMIT 1");
  q.bind(1, context);
  q.bind(2, publisher);
  if (!q.executeStep()) return {};
  return {q.getColumn(0).getInt64(), q.getColumn(1).getInt64(),
          q.getColumn(2).getInt64()};
}

std::optional<op::CursorMarks> cursor_of(OperatorDatabase& db,
                                         const std::string& subscription,
                                         const std::string& publisher) {
  Use q(db.sql().cursor_get);
  q->bind(1, subscription);
  q->bind(2, publisher);
  if (!q->executeStep()) return std::nullopt;
  return op::CursorMarks{q->getColumn(0).getInt64(),
                         q->getColumn(1).getInt64()};
}

std::string truncated(OperatorDatabase& db, const std::string& context,
                      const std::string& publisher, const Retained& retained,
                      const std::string& what) {
  SQLite::Statement q(
      db.db(), "SELECT coalesce(min(position), 0) FROM log WHERE context = ?");
  q.bind(1, context);
  q.executeStep();
  const std::int64_t oldest = q.getColumn(0).getInt64();
  std::string held =
      retained.first_sequence == 0
          ? fmt::format("no entry of publisher '{}' is retained", publisher)
          : fmt::format(
                "the oldest retained entry of publisher '{}' is sequence {} "
                "at position {}",
                publisher, retained.first_sequence, retained.first_position);
  std::string context_oldest =
      oldest == 0 ? fmt::format("the log of '{}' retains no entry", context)
                  : fmt::format("the oldest retained position of '{}' is {}",
                                context, oldest);
  return fmt::format(
      "cannot replay {}: it was truncated from the log ({}; {}); nothing was "
      "changed. Keep more history with backend.log_retention",
      what, held, context_oldest);
}

// The first sequence of `publisher` to replay, or nullopt when nothing of
// it falls in the request. Throws Refusal when the entries to replay, or
// entries that may belong to them, were truncated.
std::optional<std::int64_t> first_to_replay(OperatorDatabase& db,
                                            const std::string& context,
                                            const Publisher& publisher,
                                            const op::ReplayRequest& request) {
  const Retained retained = retained_of(db, context, publisher.id);
  if (const auto* sequence = std::get_if<std::int64_t>(&request.from)) {
    if (*sequence > publisher.last_sequence) return std::nullopt;
    if (retained.first_sequence == 0 || retained.first_sequence > *sequence)
      throw op::Refusal(truncated(db, context, publisher.id, retained,
                                  fmt::format("publisher '{}' from sequence {}",
                                              publisher.id, *sequence)));
    return *sequence;
  }
  const Instant from = std::get<Instant>(request.from);
  SQLite::Statement q(db.db(),
                      "SELECT min(sequence) FROM log WHERE context = ? AND"
                      " publisher = ? AND emitted_at >= ?");
  q.bind(1, context);
  q.bind(2, publisher.id);
  q.bind(3, to_stored_time(from));
  q.executeStep();
  const bool found = !q.getColumn(0).isNull();
  // Entries below the oldest retained one are gone: they may have been
  // emitted at or after `from` when that oldest one was, or when nothing
  // is retained, and replaying without them would skip them unseen.
  const bool gone_before = retained.first_sequence == 0
                               ? publisher.last_sequence > 0
                               : retained.first_sequence > 1;
  const bool may_be_gone =
      gone_before &&
      (retained.first_sequence == 0 ||
       (found && q.getColumn(0).getInt64() == retained.first_sequence));
  if (may_be_gone)
    throw op::Refusal(
        truncated(db, context, publisher.id, retained,
                  fmt::format("publisher '{}' from {}", publisher.id,
                              format_instant(from))));
  if (!found) return std::nullopt;
  return q.getColumn(0).getInt64();
}

std::int64_t count_entries(OperatorDatabase& db, const std::string& context,
                           const std::string& publisher, std::int64_t from,
                           std::int64_t to) {
  SQLite::Statement q(db.db(),
                      "SELECT count(*) FROM log WHERE context = ? AND"
                      " publisher = ? AND sequence BETWEEN ? AND ?");
  q.bind(1, context);
  q.bind(2, publisher);
  q.bind(3, from);
  q.bind(4, to);
  q.executeStep();
  return q.getColumn(0).getInt64();
}

std::int64_t position_of(OperatorDatabase& db, const std::string& context,
                         const std::string& publisher, std::int64_t sequence) {
  SQLite::Statement q(db.db(),
                      "SELECT position FROM log WHERE context = ? AND"
                      " publisher = ? AND sequence = ?");
  q.bind(1, context);
  q.bind(2, publisher);
  q.bind(3, sequence);
  if (!q.executeStep())
    throw op::Refusal(fmt::format(
        "{}: the log of '{}' has no sequence {} of publisher '{}' although "
        "later ones are retained; the database is damaged",
        db.path(), context, sequence, publisher));
  return q.getColumn(0).getInt64();
}

// The highest sequence below `below` of `publisher` logged at a position in
// (low, high].
std::optional<std::int64_t> last_between(OperatorDatabase& db,
                                         const std::string& context,
                                         const std::string& publisher,
                                         std::int64_t low, std::int64_t high,
                                         std::int64_t below) {
  SQLite::Statement q(db.db(),
                      "SELECT max(sequence) FROM log WHERE context = ? AND"
                      " publisher = ? AND position > ? AND position <= ?"
                      " AND sequence < ?");
  q.bind(1, context);
  q.bind(2, publisher);
  q.bind(3, low);
  q.bind(4, high);
  q.bind(5, below);
  q.executeStep();
  if (q.getColumn(0).isNull()) return std::nullopt;
  return q.getColumn(0).getInt64();
}

void write_cursor(OperatorDatabase& db, const std::string& subscription,
                  const std::string& publisher, const op::CursorMarks& marks) {
  SQLite::Statement q(db.db(),
                      "INSERT INTO cursor(subscription, publisher, committed,"
                      " acknowledged) VALUES (?, ?, ?, ?)"
                      " ON CONFLICT(subscription, publisher) DO UPDATE SET"
                      " committed = excluded.committed,"
                      " acknowledged = excluded.acknowledged");
  q.bind(1, subscription);
  q.bind(2, publisher);
  q.bind(3, marks.committed);
  q.bind(4, marks.acknowledged);
  q.exec();
}

}  // namespace

op::ReplayResult replay(OperatorDatabase& db, const op::ReplayRequest& request,
                        op::ProgressSink& progress) {
  WriteTransaction transaction(db.sql());
  op::ReplayResult result;
  result.subscription = request.subscription;
  result.force = request.force;
  {
    SQLite::Statement q(
        db.db(),
        "SELECT context, start_position FROM subscription WHERE name = ?");
    q.bind(1, request.subscription);
    if (!q.executeStep()) refuse_unknown_subscription(db, request.subscription);
    result.context = q.getColumn(0).getString();
    result.start_position_before = q.getColumn(1).getInt64();
  }
  const std::vector<Publisher> publishers = publishers_of(db, result.context);
  if (request.publisher && std::none_of(publishers.begin(), publishers.end(),
                                        [&](const Publisher& p) {
                                          return p.id == *request.publisher;
                                        }))
    throw op::Refusal(fmt::format("{}: context '{}' has no publisher '{}'",
                                  db.path(), result.context,
                                  *request.publisher));

  progress.start("planning the replay",
                 static_cast<std::int64_t>(publishers.size()));
  for (const Publisher& publisher : publishers) {
    progress.advance(1);
    if (request.publisher && publisher.id != *request.publisher) continue;
    const std::optional<std::int64_t> first =
        first_to_replay(db, result.context, publisher, request);
    if (!first) continue;
    op::PublisherReplay r;
    r.publisher = publisher.id;
    r.first_sequence = *first;
    r.first_position = position_of(db, result.context, publisher.id, *first);
    r.before = cursor_of(db, result.subscription, publisher.id);
    const op::CursorMarks before = r.before.value_or(op::CursorMarks{});
    r.after.acknowledged =
        r.before ? std::min(before.acknowledged, *first - 1) : *first - 1;
    r.after.committed = request.force ? std::min(before.committed, *first - 1)
                                      : before.committed;
    r.requeued = count_entries(db, result.context, publisher.id, *first,
                               publisher.last_sequence);
    r.dedup_skips = r.after.committed >= *first
                        ? count_entries(db, result.context, publisher.id,
                                        *first, r.after.committed)
                        : 0;
    result.replayed.push_back(std::move(r));
  }
  progress.finish();

  result.start_position_after = result.start_position_before;
  for (const op::PublisherReplay& r : result.replayed)
    result.start_position_after =
        std::min(result.start_position_after, r.first_position - 1);

  // Entries between the new and the old start position that are not
  // replayed were never the subscription's to deliver: each publisher's
  // cursor stays over them.
  if (result.start_position_after < result.start_position_before) {
    for (const Publisher& publisher : publishers) {
      auto replayed =
          std::find_if(result.replayed.begin(), result.replayed.end(),
                       [&](const op::PublisherReplay& r) {
                         return r.publisher == publisher.id;
                       });
      const std::optional<std::int64_t> last = last_between(
          db, result.context, publisher.id, result.start_position_after,
          result.start_position_before,
          replayed == result.replayed.end()
              ? std::numeric_limits<std::int64_t>::max()
              : replayed->first_sequence);
      if (!last) continue;
      if (replayed != result.replayed.end()) {
        replayed->after.acknowledged =
            std::max(replayed->after.acknowledged, *last);
        continue;
      }
      op::PublisherHeld h;
      h.publisher = publisher.id;
      h.before = cursor_of(db, result.subscription, publisher.id);
      if (h.before && h.before->acknowledged >= *last) continue;
      h.after = h.before.value_or(op::CursorMarks{});
      h.after.acknowledged = *last;
      result.held.push_back(std::move(h));
    }
  }

  progress.start(
      "lowering cursors",
      static_cast<std::int64_t>(result.replayed.size() + result.held.size()));
  for (const op::PublisherReplay& r : result.replayed) {
    if (!r.before || r.before->acknowledged != r.after.acknowledged ||
        r.before->committed != r.after.committed)
      write_cursor(db, result.subscription, r.publisher, r.after);
    progress.advance(1);
  }
  for (const op::PublisherHeld& h : result.held) {
    write_cursor(db, result.subscription, h.publisher, h.after);
    progress.advance(1);
  }
  if (result.start_position_after != result.start_position_before) {
    SQLite::Statement q(
        db.db(), "UPDATE subscription SET start_position = ? WHERE name = ?");
    q.bind(1, result.start_position_after);
    q.bind(2, result.subscription);
    q.exec();
  }
  transaction.commit();
  progress.finish();
  return result;
}

}  // namespace herald::sqlite_detail
