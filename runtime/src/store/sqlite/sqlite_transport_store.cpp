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
  const std::string& context = static_cast<SqliteContextLog&>(log).context();
  std::lock_guard lock(mutex_);
  counters_->begin();
  WriteTransaction tx(*sql_);
  for (const MirroredEvent& e : events) {
    Use q(sql_->log_insert);
    q->bind(1, context);
    q->bind(2, counters_->next_position(context));
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
  {
    Use q(sql_->meta_put);
    q->bind(1, mark_key(name));
    q->bind(2, std::to_string(value));
    q->exec();
  }
  tx.commit();
  counters_->committed();
}

}  // namespace herald::sqlite_detail
