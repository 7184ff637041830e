// The sqlite backend as a transport's store (SqliteTransportStore): the
// transport's marks in herald_meta, the reads of an outbox relay, the
// mirrors of other processes' logs, appended with their envelopes, and the
// agent messages carried between processes (received ones added as pending,
// remembered by id in the idempotency table; carried ones removed).
#include <fmt/format.h>

#include "sqlite_backend.hpp"
#include "stored_entry.hpp"

namespace herald {

SqliteTransportStore& sqlite_transport_store(Backend& sqlite) {
  auto* store = dynamic_cast<SqliteTransportStore*>(&sqlite);
  if (store == nullptr) {
    throw Error(fmt::format("the {} backend is not a sqlite local store",
                            sqlite.name()));
  }
  return *store;
}

}  // namespace herald

namespace herald::sqlite_detail {
namespace {

std::string mark_key(std::string_view name) {
  return fmt::format("transport.{}", name);
}

// The idempotency scope that remembers the ids of received messages.
constexpr std::string_view kReceivedScope = "transport.received_message";

}  // namespace

std::int64_t SqliteBackend::transport_mark(std::string_view name) {
  std::lock_guard lock(mutex_);
  Use q(sql_->meta_get);
  q->bind(1, mark_key(name));
  if (!q->executeStep()) return 0;
  return std::stoll(q->getColumn(0).getString());
}

void SqliteBackend::write_transport_mark(std::string_view name,
                                         std::int64_t value) {
  std::lock_guard lock(mutex_);
  Use q(sql_->meta_put);
  q->bind(1, mark_key(name));
  q->bind(2, std::to_string(value));
  q->exec();
}

std::size_t SqliteBackend::read_outbox(ContextLog& log, std::int64_t after,
                                       std::size_t max,
                                       std::vector<OutboxEntry>& out) {
  return static_cast<SqliteContextLog&>(log).read_outbox(after, max, out);
}

void SqliteBackend::append_mirrored(ContextLog& log,
                                    const std::vector<MirroredEvent>& events,
                                    std::string_view name, std::int64_t value) {
  auto& mirror = static_cast<SqliteContextLog&>(log);
  const std::string& context = mirror.context();
  std::vector<LogEntryPtr> entries;
  entries.reserve(events.size());
  std::lock_guard lock(mutex_);
  counters_->begin();
  WriteTransaction tx(*sql_);
  for (const MirroredEvent& e : events) {
    const std::int64_t position = counters_->next_position(context);
    {
      Use q(sql_->log_insert);
      q->bind(1, context);
      q->bind(2, position);
      q->bind(3, e.event_id.str());
      q->bind(4, e.event_type);
      q->bind(5, e.publisher);
      q->bind(6, e.sequence);
      q->bind(7, to_stored_time(e.emitted_at));
      q->bind(8, e.schema_version);
      bind_optional_id(sql_->log_insert, 9, e.causation);
      q->bind(10, e.correlation.str());
      q->bind(11, e.depth);
      q->bind(12, e.payload);
      q->exec();
    }
    // The entry as a read of the row decodes it, for the log's tail.
    entries.push_back(decode_mirrored_event(e, position));
  }
  {
    Use q(sql_->meta_put);
    q->bind(1, mark_key(name));
    q->bind(2, std::to_string(value));
    q->exec();
  }
  tx.commit();
  counters_->committed();
  // As a local commit does: the fan-out reads the new entries from the
  // tail instead of the table, and the close settles the entries every
  // subscription settled since the fan-out last ran (a filtered-out entry
  // acknowledges nothing of its own).
  for (LogEntryPtr& entry : entries) mirror.committed(std::move(entry));
}

std::vector<AgentMessage> SqliteBackend::append_received(
    std::vector<AgentMessage> messages, Instant now, Instant remember_until,
    std::string_view name, std::int64_t value) {
  std::vector<AgentMessage> added;
  added.reserve(messages.size());
  std::lock_guard lock(mutex_);
  WriteTransaction tx(*sql_);
  for (AgentMessage& m : messages) {
    const std::string id = m.id.str();
    {
      Use q(sql_->message_get);
      q->bind(1, id);
      if (q->executeStep()) continue;  // pending here
    }
    {
      Use q(sql_->idempotency_get);
      q->bind(1, std::string(kReceivedScope));
      q->bind(2, id);
      if (q->executeStep() && q->getColumn(0).getInt64() > to_stored_time(now))
        continue;  // received before (run, or dead)
    }
    {
      Use q(sql_->message_insert);
      bind_message(sql_->message_insert, m);
      q->bind(9, to_stored_time(now));
      q->exec();
    }
    {
      Use q(sql_->idempotency_put);
      q->bind(1, std::string(kReceivedScope));
      q->bind(2, id);
      q->bind(3, to_stored_time(remember_until));
      q->exec();
    }
    added.push_back(std::move(m));
  }
  {
    Use q(sql_->meta_put);
    q->bind(1, mark_key(name));
    q->bind(2, std::to_string(value));
    q->exec();
  }
  tx.commit();
  return added;
}

void SqliteBackend::remove_carried(const std::vector<MessageId>& ids) {
  std::lock_guard lock(mutex_);
  WriteTransaction tx(*sql_);
  for (const MessageId& id : ids) {
    Use q(sql_->message_delete);
    q->bind(1, id.str());
    q->exec();
  }
  tx.commit();
}

}  // namespace herald::sqlite_detail
