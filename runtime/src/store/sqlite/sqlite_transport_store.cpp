// The sqlite backend as a transport's store (SqliteTransportStore): the
// transport's marks in herald_meta and the mirrors of other processes'
// logs, appended with their envelopes.
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
    StoredEvent row{
        e.event_id.str(),
        e.event_type,
        e.publisher,
        e.sequence,
        to_stored_time(e.emitted_at),
        e.schema_version,
        e.causation ? std::optional(e.causation->str()) : std::nullopt,
        e.correlation.str(),
        e.depth,
        e.payload,
        counters_->next_position(context)};
    {
      Use q(sql_->log_insert);
      q->bind(1, context);
      q->bind(2, row.position);
      q->bind(3, row.event_id);
      q->bind(4, row.event_type);
      q->bind(5, row.publisher);
      q->bind(6, row.sequence);
      q->bind(7, row.emitted_at);
      q->bind(8, row.schema_version);
      if (row.causation_id) {
        q->bind(9, *row.causation_id);
      } else {
        q->bind(9);
      }
      q->bind(10, row.correlation_id);
      q->bind(11, row.depth);
      q->bind(12, row.payload);
      q->exec();
    }
    // The entry as a read of the row decodes it, for the log's tail.
    entries.push_back(decode_stored_event(std::move(row)));
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

}  // namespace herald::sqlite_detail
