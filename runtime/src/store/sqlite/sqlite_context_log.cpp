// The sqlite backend's context log: the `log` table of one context.
#include <algorithm>
#include <limits>
#include <optional>

#include <nlohmann/json.hpp>

#include "herald/event_type.hpp"
#include "sqlite_backend.hpp"
#include "stored_entry.hpp"

namespace herald::sqlite_detail {

void SqliteContextLog::read(std::int64_t after, std::size_t max,
                            std::vector<LogEntryPtr>& out) {
  constexpr auto kMax =
      static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
  constexpr std::size_t kReserve = 1024;
  std::vector<StoredEvent> rows;
  {
    std::lock_guard lock(backend_.mutex());
    if (!tail_.empty() && after + 1 >= tail_.front().entry->position) {
      for (auto i = static_cast<std::size_t>(after + 1 -
                                             tail_.front().entry->position);
           i < tail_.size() && max > 0; ++i, --max)
        out.push_back(tail_[i].entry);
      return;
    }
    SQLite::Statement& s = backend_.sql().log_read;
    // Room for a whole read up front (a relay reading back a batch behind
    // the tail): growing the vector row by row costs more than the rows.
    rows.reserve(std::min(max, kReserve));
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

namespace {

void assign_text(std::string& to, const SQLite::Column& c) {
  to.assign(c.getText(), static_cast<std::size_t>(c.getBytes()));
}

// Row `s` (log_read's columns) into `e`, its strings' buffers reused.
void read_row(SQLite::Statement& s, OutboxEntry& e) {
  e.entry.reset();
  MirroredEvent& m = e.stored;
  e.position = s.getColumn(0).getInt64();
  std::optional<EventId> id = EventId::parse(s.getColumn(1).getText());
  bool ids = id.has_value();
  if (id) m.event_id = *id;
  assign_text(m.event_type, s.getColumn(2));
  assign_text(m.publisher, s.getColumn(3));
  m.sequence = s.getColumn(4).getInt64();
  m.emitted_at = from_stored_time(s.getColumn(5).getInt64());
  m.schema_version = s.getColumn(6).getInt64();
  m.causation.reset();
  if (!s.getColumn(7).isNull()) {
    m.causation = EventId::parse(s.getColumn(7).getText());
    ids = ids && m.causation.has_value();
  }
  id = EventId::parse(s.getColumn(8).getText());
  ids = ids && id.has_value();
  if (id) m.correlation = *id;
  m.depth = s.getColumn(9).getInt64();
  assign_text(m.payload, s.getColumn(10));
  e.publishable = ids && find_event_type(m.event_type) != nullptr;
}

// An entry this process committed into `m` as its row reads, its strings'
// buffers reused.
void read_committed(const CommittedLogEntry& c, MirroredEvent& m) {
  const EventEnvelope& env = c.envelope;
  m.event_id = env.eventId;
  m.event_type.assign(env.eventType);
  m.publisher.assign(c.publisher);
  m.sequence = env.sequence;
  m.emitted_at = env.emittedAt;
  m.schema_version = env.schemaVersion;
  m.causation = env.causationId;
  m.correlation = env.correlationId;
  m.depth = env.depth;
  m.payload.assign(c.text);
}

}  // namespace

std::size_t SqliteContextLog::read_outbox(std::int64_t after, std::size_t max,
                                          std::vector<OutboxEntry>& out) {
  constexpr auto kMax =
      static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max());
  std::size_t n = 0;
  const auto next = [&]() -> OutboxEntry& {
    if (n == out.size()) out.emplace_back();
    return out[n++];
  };
  std::lock_guard lock(backend_.mutex());
  if (!tail_.empty() && after + 1 >= tail_.front().entry->position) {
    for (auto i = static_cast<std::size_t>(after + 1 -
                                           tail_.front().entry->position);
         i < tail_.size() && n < max; ++i) {
      OutboxEntry& e = next();
      const TailEntry& t = tail_[i];
      e.position = t.entry->position;
      if (t.local != nullptr) {
        // Committed here: published as stored, its text not encoded again.
        e.entry.reset();
        read_committed(*t.local, e.stored);
        e.publishable = true;
      } else {
        e.entry = t.entry;
        e.publishable = e.entry->type != nullptr && e.entry->payload != nullptr;
      }
    }
    return n;
  }
  SQLite::Statement& s = backend_.sql().log_read;
  Use q(s);
  q->bind(1, context_);
  q->bind(2, after);
  q->bind(3, static_cast<std::int64_t>(std::min(max, kMax)));
  while (q->executeStep()) read_row(s, next());
  return n;
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
  truncate_to_ = std::max(truncate_to_, position);
  retain_until_ = std::max(retain_until_, retain_until);
  if (!held_ && truncate_to_ >= written_to_ + kTruncateEvery) {
    backend_.hold(*this);
    held_ = true;
  }
}

void SqliteContextLog::settle_from_tail() noexcept {
  std::int64_t settled = std::max(truncate_to_, settled_to_);
  for (std::size_t i = 0; i < tail_.size(); ++i) {
    const LogEntry& entry = *tail_[i].entry;
    if (entry.position <= settled) continue;
    if (entry.position != settled + 1 ||
        entry.pending.load(std::memory_order_acquire) != 0)
      break;
    settled = entry.position;
  }
  settled_to_ = settled;
}

void SqliteContextLog::hold_remaining_truncation() {
  settle_from_tail();
  if (held_ || (truncate_to_ <= written_to_ && settled_to_ <= settled_written_))
    return;
  backend_.hold(*this);
  held_ = true;
}

void SqliteContextLog::write_truncation(Statements& sql) {
  std::int64_t keep = truncate_to_ + 1;
  {
    Use q(sql.log_kept);
    q->bind(1, context_);
    q->bind(2, truncate_to_);
    q->bind(3, to_stored_time(retain_until_));
    q->bind(4, scanned_to_);
    if (q->executeStep()) keep = q->getColumn(0).getInt64();
  }
  // Every entry up to the truncation is settled for every subscription
  // the fan-out routes to, whether or not retention keeps it: `herald
  // status` counts it as consumed (a filtered-out entry acknowledges
  // nothing of its own).
  backend_.write_settled(context_, std::max(truncate_to_, settled_to_));
  if (keep <= scanned_to_) return;
  // Rows of an event type this build does not know were logged by a newer
  // one (a rolled-back deployment): never routed here, they are kept for
  // the build that knows them, and listed for `herald status`. A first
  // truncation reads the whole log, so the list is rebuilt by every
  // process.
  if (scanned_to_ == 0) unknown_types_.clear();
  {
    Use q(sql.log_types);
    q->bind(1, context_);
    q->bind(2, keep);
    q->bind(3, scanned_to_);
    while (q->executeStep()) {
      std::string type = q->getColumn(0).getString();
      if (find_event_type(type) == nullptr)
        unknown_types_.insert(std::move(type));
    }
  }
  const nlohmann::json unknown(unknown_types_);
  if (unknown_types_.empty()) {
    Use q(sql.meta_delete);
    q->bind(1, unknown_types_key(context_));
    q->exec();
  } else {
    Use q(sql.meta_put);
    q->bind(1, unknown_types_key(context_));
    q->bind(2, unknown.dump());
    q->exec();
  }
  // The floors first: the entries about to go may hold the head and
  // publishers' highest sequences.
  for (SQLite::Statement* s : {&sql.head_floor, &sql.sequence_floor}) {
    Use q(*s);
    q->bind(1, context_);
    q->bind(2, keep);
    q->bind(3, scanned_to_);
    q->exec();
  }
  Use q(sql.log_delete);
  q->bind(1, context_);
  q->bind(2, keep);
  q->bind(3, scanned_to_);
  q->bind(4, unknown.dump());
  q->exec();
  scanning_to_ = keep;
}

void SqliteContextLog::truncation_written() noexcept {
  // The same front-first rule as the statement's.
  while (!tail_.empty() && tail_.front().entry->position <= truncate_to_ &&
         tail_.front().entry->envelope.emittedAt <= retain_until_)
    tail_.pop_front();
  written_to_ = truncate_to_;
  settled_written_ = std::max(truncate_to_, settled_to_);
  scanned_to_ = std::max(scanned_to_, scanning_to_);
  held_ = false;
}

void SqliteContextLog::committed(
    std::shared_ptr<CommittedLogEntry> entry) noexcept {
  const CommittedLogEntry* local = entry.get();
  push_tail(TailEntry{std::move(entry), local});
}

void SqliteContextLog::committed(LogEntryPtr entry) noexcept {
  push_tail(TailEntry{std::move(entry), nullptr});
}

void SqliteContextLog::push_tail(TailEntry entry) noexcept {
  try {
    if (!tail_.empty() &&
        tail_[tail_.size() - 1].entry->position + 1 != entry.entry->position)
      tail_.clear();
    if (tail_.size() == kTail) tail_.pop_front();
    tail_.push_back(std::move(entry));
  } catch (const std::bad_alloc&) {
    tail_.clear();
  }
}

}  // namespace herald::sqlite_detail
