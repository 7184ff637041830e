// SqliteOperator (herald/sqlite_operator.hpp): the operations over an open
// database, and SQLite's failures reported as op::DatabaseError naming the
// file, so a front end needs nothing of SQLite.
#include "herald/sqlite_operator.hpp"

#include <fmt/format.h>

#include "operator_database.hpp"
#include <SQLiteCpp/Exception.h>

namespace herald {
namespace {

template <typename Work>
auto guarded(const std::string& path, Work work) {
  try {
    return work();
  } catch (const SQLite::Exception& e) {
    throw op::DatabaseError(fmt::format("{}: {}", path, e.what()));
  }
}

std::string no_letter(const std::string& event_id,
                      const std::optional<std::string>& subscription) {
  if (subscription)
    return fmt::format("subscription '{}' has no dead letter of event {}",
                       *subscription, event_id);
  return fmt::format("no dead letter of event {}", event_id);
}

// Reports nothing: a re-drive of one event is short.
class NoProgress final : public op::ProgressSink {
 public:
  void start(std::string /*label*/, std::int64_t /*total*/) override {}
  void advance(std::int64_t /*steps*/) override {}
  void finish() override {}
};

}  // namespace

SqliteOperator::SqliteOperator(std::string path)
    : db_(guarded(path, [&] {
        return std::make_unique<sqlite_detail::OperatorDatabase>(path);
      })) {}

SqliteOperator::~SqliteOperator() = default;

const std::string& SqliteOperator::path() const { return db_->path(); }

op::Status SqliteOperator::status() {
  return guarded(path(), [&] { return sqlite_detail::read_status(*db_); });
}

std::vector<op::DeadLetter> SqliteOperator::dead_letters(
    const std::optional<std::string>& subscription) {
  return guarded(path(), [&] {
    if (subscription) sqlite_detail::require_subscription(*db_, *subscription);
    return sqlite_detail::select_dead_letters(*db_, std::nullopt, subscription);
  });
}

std::vector<op::DeadLetter> SqliteOperator::find_dead_letters(
    const std::string& event_id,
    const std::optional<std::string>& subscription) {
  return guarded(path(), [&] {
    if (subscription) sqlite_detail::require_subscription(*db_, *subscription);
    auto letters =
        sqlite_detail::select_dead_letters(*db_, event_id, subscription);
    if (letters.empty()) throw op::Refusal(no_letter(event_id, subscription));
    return letters;
  });
}

op::RedriveResult SqliteOperator::redrive(
    const std::string& event_id,
    const std::optional<std::string>& subscription) {
  const auto letters = find_dead_letters(event_id, subscription);
  NoProgress quiet;
  return guarded(path(), [&] {
    return sqlite_detail::mark_for_redrive(*db_, letters, quiet);
  });
}

op::RedriveResult SqliteOperator::redrive_all(
    const std::optional<std::string>& subscription,
    op::ProgressSink& progress) {
  const auto letters = dead_letters(subscription);
  return guarded(path(), [&] {
    return sqlite_detail::mark_for_redrive(*db_, letters, progress);
  });
}

std::vector<op::DeadMessage> SqliteOperator::dead_messages(
    const std::optional<std::string>& agent_kind) {
  return guarded(path(), [&] {
    if (agent_kind) sqlite_detail::require_agent_kind(*db_, *agent_kind);
    return sqlite_detail::select_dead_messages(*db_, std::nullopt, agent_kind);
  });
}

op::DeadMessage SqliteOperator::find_dead_message(const std::string& id) {
  return guarded(path(), [&] {
    auto messages = sqlite_detail::select_dead_messages(*db_, id, std::nullopt);
    if (messages.empty()) sqlite_detail::refuse_unknown_dead_message(*db_, id);
    return std::move(messages.front());
  });
}

op::MessageRedriveResult SqliteOperator::redrive_message(
    const std::string& id) {
  const std::vector<op::DeadMessage> messages{find_dead_message(id)};
  NoProgress quiet;
  return guarded(path(), [&] {
    return sqlite_detail::requeue_dead_messages(*db_, messages, quiet);
  });
}

op::MessageRedriveResult SqliteOperator::redrive_messages(
    const std::optional<std::string>& agent_kind, op::ProgressSink& progress) {
  const auto messages = dead_messages(agent_kind);
  return guarded(path(), [&] {
    return sqlite_detail::requeue_dead_messages(*db_, messages, progress);
  });
}

op::ReplayResult SqliteOperator::replay(const op::ReplayRequest& request,
                                        op::ProgressSink& progress) {
  return guarded(
      path(), [&] { return sqlite_detail::replay(*db_, request, progress); });
}

}  // namespace herald
