// The sqlite backend's context log: the `log` table of one context.
#include "sqlite_backend.hpp"

namespace herald::sqlite_detail {

void SqliteContextLog::read(std::int64_t after, std::size_t max,
                            std::vector<LogEntryPtr>& out) {
  constexpr auto kMax =
      static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
  std::vector<StoredEvent> rows;
  {
    std::lock_guard lock(backend_.mutex());
    SQLite::Statement& s = backend_.sql().log_read;
    Use q(s);
    q->bind(1, context_);
    q->bind(2, after);
    q->bind(3, static_cast<std::int64_t>(std::min(max, kMax)));
    while (q->executeStep())
      rows.push_back(stored_event(s, 1, s.getColumn(0).getInt64()));
  }
  // Decoding runs outside the connection's lock.
  for (StoredEvent& row : rows)
    out.push_back(decode_stored_event(std::move(row)));
}

std::int64_t SqliteContextLog::head() {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().log_head);
  q->bind(1, context_);
  return q->executeStep() ? q->getColumn(0).getInt64() : 0;
}

std::size_t SqliteContextLog::size() {
  std::lock_guard lock(backend_.mutex());
  Use q(backend_.sql().log_size);
  q->bind(1, context_);
  q->executeStep();
  return static_cast<std::size_t>(q->getColumn(0).getInt64());
}

void SqliteContextLog::truncate(std::int64_t position, Instant retain_until) {
  std::lock_guard lock(backend_.mutex());
  WriteTransaction tx(backend_.sql(), WriteTransaction::Sync::deferred);
  {
    Use q(backend_.sql().log_truncate);
    q->bind(1, context_);
    q->bind(2, position);
    q->bind(3, to_stored_time(retain_until));
    q->exec();
  }
  tx.commit();
}

}  // namespace herald::sqlite_detail
