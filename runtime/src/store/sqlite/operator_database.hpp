#pragma once
// Internal to the sqlite backend's operator API (herald/sqlite_operator.hpp):
// a stopped program's database opened for an operator, with the lock held
// and the layout checked, and the operations each operator_*.cpp file
// implements over it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "file_lock.hpp"
#include "herald/sqlite_operator.hpp"
#include "sqlite_statements.hpp"
#include <SQLiteCpp/Database.h>

namespace herald::sqlite_detail {

class OperatorDatabase {
 public:
  // Refuses (op::Refusal) a path that does not exist or is not SQLite's
  // before any lock file is created next to it, then takes the lock, opens
  // the file and refuses a layout that is not Herald's or is newer than
  // this build's.
  explicit OperatorDatabase(std::string path);

  const std::string& path() const { return path_; }
  SQLite::Database& db() { return db_; }
  // The backend's prepared statements over this connection.
  Statements& sql() { return *sql_; }
  int schema_version() const { return schema_version_; }

 private:
  std::string path_;
  FileLock lock_;
  SQLite::Database db_;
  int schema_version_ = 0;
  std::unique_ptr<Statements> sql_;
};

// operator_status.cpp
op::Status read_status(OperatorDatabase& db);

// operator_dead_letters.cpp
// Throws op::Refusal unless `name` is a subscription of the database.
void require_subscription(OperatorDatabase& db, const std::string& name);
// The refusal of a subscription name the database does not have, with the
// nearest one it has ("did you mean").
[[noreturn]] void refuse_unknown_subscription(OperatorDatabase& db,
                                              const std::string& name);
// The letters of one event, or of every event, optionally of one
// subscription, in id order.
std::vector<op::DeadLetter> select_dead_letters(
    OperatorDatabase& db, const std::optional<std::string>& event_id,
    const std::optional<std::string>& subscription);
// Marks `letters` for re-drive in one transaction.
op::RedriveResult mark_for_redrive(OperatorDatabase& db,
                                   const std::vector<op::DeadLetter>& letters,
                                   op::ProgressSink& progress);

// operator_messages.cpp
// Dead messages (only `id`'s, only `agent_kind`'s when given), in
// dead-lettering order.
std::vector<op::DeadMessage> select_dead_messages(
    OperatorDatabase& db, const std::optional<std::string>& id,
    const std::optional<std::string>& agent_kind);
// Throws op::Refusal unless the database has an agent, a pending or a dead
// message of `kind`.
void require_agent_kind(OperatorDatabase& db, const std::string& kind);
// The refusal of a message id that is not a dead message, with the nearest
// one there is.
[[noreturn]] void refuse_unknown_dead_message(OperatorDatabase& db,
                                              const std::string& id);
// Moves `messages` from dead_message back to agent_message in one
// transaction.
op::MessageRedriveResult requeue_dead_messages(
    OperatorDatabase& db, const std::vector<op::DeadMessage>& messages,
    op::ProgressSink& progress);

// operator_replay.cpp
op::ReplayResult replay(OperatorDatabase& db, const op::ReplayRequest& request,
                        op::ProgressSink& progress);

}  // namespace herald::sqlite_detail
