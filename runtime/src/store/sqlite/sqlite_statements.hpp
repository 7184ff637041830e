#pragma once
// Internal to the sqlite backend: the connection's prepared statements, its
// write transaction, and the row helpers the backend's stores share.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "herald/agent_message.hpp"
#include "herald/event_id.hpp"
#include "stored_entry.hpp"
#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

namespace herald::sqlite_detail {

// Resets a prepared statement when its use ends, so it holds no read
// transaction open and is ready for the next bind.
class Use {
 public:
  explicit Use(SQLite::Statement& s) : s_(s) {}
  ~Use() { s_.tryReset(); }
  Use(const Use&) = delete;
  Use& operator=(const Use&) = delete;
  SQLite::Statement* operator->() { return &s_; }

 private:
  SQLite::Statement& s_;
};

inline std::string text(std::string_view v) { return std::string(v); }

inline std::optional<std::string> optional_text(const SQLite::Column& c) {
  if (c.isNull()) return std::nullopt;
  return c.getString();
}

inline std::optional<EventId> optional_id(const SQLite::Column& c) {
  if (c.isNull()) return std::nullopt;
  return EventId::parse(c.getString());
}

inline EventId id_or_nil(const std::string& s) {
  return EventId::parse(s).value_or(EventId{});
}

inline void bind_optional_id(SQLite::Statement& s, int index,
                             const std::optional<EventId>& id) {
  if (id) {
    s.bind(index, id->str());
  } else {
    s.bind(index);
  }
}

struct Statements;

// One IMMEDIATE write transaction through the prepared BEGIN, COMMIT and
// ROLLBACK of `Statements` (SQLite::Transaction would compile its statement
// again on every use); rolled back if it ends without commit().
class WriteTransaction {
 public:
  explicit WriteTransaction(Statements& sql);
  ~WriteTransaction();
  WriteTransaction(const WriteTransaction&) = delete;
  WriteTransaction& operator=(const WriteTransaction&) = delete;
  void commit();

 private:
  Statements& sql_;
  bool open_ = true;
};

// The log row's columns after `position`, in StoredEvent order.
constexpr const char* kEventColumns =
    "event_id, event_type, publisher, sequence, emitted_at, schema_version, "
    "causation_id, correlation_id, depth, payload";

// A log row's event columns from column `first` on (kEventColumns order).
StoredEvent stored_event(SQLite::Statement& s, int first,
                         std::int64_t position);

struct Statements {
  explicit Statements(SQLite::Database& db);

  SQLite::Statement begin;
  SQLite::Statement commit;
  SQLite::Statement rollback;
  SQLite::Statement load_state;
  SQLite::Statement write_state;
  SQLite::Statement idempotency_get;
  SQLite::Statement idempotency_put;
  SQLite::Statement supplied_get;
  SQLite::Statement supplied_put;
  SQLite::Statement sequence_get;
  SQLite::Statement log_insert;
  SQLite::Statement log_read;
  SQLite::Statement log_head;
  SQLite::Statement log_size;
  SQLite::Statement log_kept;
  SQLite::Statement log_types;
  SQLite::Statement head_floor;
  SQLite::Statement sequence_floor;
  SQLite::Statement log_delete;
  SQLite::Statement meta_get;
  SQLite::Statement meta_put;
  SQLite::Statement meta_delete;
  SQLite::Statement subscription_insert;
  SQLite::Statement subscription_get;
  SQLite::Statement subscription_ack;
  SQLite::Statement cursor_get;
  SQLite::Statement cursor_commit;
  SQLite::Statement cursor_ack;
  SQLite::Statement cursor_settle;
  SQLite::Statement attempt_put;
  SQLite::Statement attempt_get;
  SQLite::Statement attempt_delete;
  SQLite::Statement attempt_any;  // whether a subscription has any
  SQLite::Statement letter_delete;
  SQLite::Statement letter_insert;
  SQLite::Statement letters_all;
  SQLite::Statement letter_find;
  SQLite::Statement letter_mark;
  SQLite::Statement letter_update;
  SQLite::Statement message_insert;
  SQLite::Statement message_delete;
  SQLite::Statement messages_all;
  SQLite::Statement message_get;
  SQLite::Statement message_attempt;
  SQLite::Statement dead_message_insert;
  SQLite::Statement dead_messages_all;
  SQLite::Statement purge_idempotency;
  SQLite::Statement purge_supplied;
};

// herald_meta's key under which a context's log lists, as a JSON array, the
// event types of rows it keeps because the build that truncated it did not
// know them.
inline std::string unknown_types_key(const std::string& context) {
  return "unknown_event_types:" + context;
}

constexpr const char* kLetterColumns =
    "position, event_id, event_type, publisher, sequence, emitted_at, "
    "schema_version, causation_id, correlation_id, depth, payload, attempts, "
    "last_error, first_attempt_at, last_attempt_at, dead_lettered_at, "
    "redriving, halts";

constexpr const char* kMessageColumns =
    "id, agent_kind, agent_key, handler, args, causation_id, correlation_id, "
    "depth";

// An agent message row, in kMessageColumns order from column 0. Arguments
// that are not JSON keep their text and the parse error (D9).
AgentMessage stored_message(SQLite::Statement& s);
// Binds a message's columns 1..8 (kMessageColumns order).
void bind_message(SQLite::Statement& s, const AgentMessage& m);

}  // namespace herald::sqlite_detail
