#include "tools/herald/commands.hpp"

#include "tools/herald/database_command.hpp"
#include "tools/herald/json_output.hpp"
#include "tools/herald/node_status.hpp"
#include "tools/herald/progress.hpp"
#include "tools/herald/text_output.hpp"

namespace herald::tool {

int run_status(const std::string& path, const RuntimeConfig* config,
               Output output) {
  if (config != nullptr && config->backend_kind == BackendKind::nats)
    return run_node_status(path, *config, output);
  return with_database(path, [&](SqliteOperator& db) {
    const op::Status status = db.status();
    print(output, status_json(status), status_text(status));
  });
}

int run_dead_letters_list(const std::string& path,
                          const std::optional<std::string>& subscription,
                          Output output) {
  return with_database(path, [&](SqliteOperator& db) {
    const auto letters = db.dead_letters(subscription);
    print(output, dead_letters_json(letters), dead_letter_list_text(letters));
  });
}

int run_dead_letters_show(const std::string& path, const std::string& event_id,
                          const std::optional<std::string>& subscription,
                          Output output) {
  return with_database(path, [&](SqliteOperator& db) {
    const auto letters = db.find_dead_letters(event_id, subscription);
    print(output, dead_letters_json(letters), dead_letter_text(letters));
  });
}

int run_dead_letters_redrive(const std::string& path,
                             const std::optional<std::string>& event_id,
                             const std::optional<std::string>& subscription,
                             Output output) {
  return with_database(path, [&](SqliteOperator& db) {
    Progress progress = Progress::on_stderr();
    const op::RedriveResult result =
        event_id ? db.redrive(*event_id, subscription)
                 : db.redrive_all(subscription, progress);
    print(output, redrive_json(result), redrive_text(result));
  });
}

int run_messages_list(const std::string& path,
                      const std::optional<std::string>& agent_kind,
                      Output output) {
  return with_database(path, [&](SqliteOperator& db) {
    const auto messages = db.dead_messages(agent_kind);
    print(output, dead_messages_json(messages),
          dead_message_list_text(messages));
  });
}

int run_messages_show(const std::string& path, const std::string& message_id,
                      Output output) {
  return with_database(path, [&](SqliteOperator& db) {
    const op::DeadMessage message = db.find_dead_message(message_id);
    print(output, dead_message_json(message), dead_message_text(message));
  });
}

int run_messages_redrive(const std::string& path,
                         const std::optional<std::string>& message_id,
                         const std::optional<std::string>& agent_kind,
                         Output output) {
  return with_database(path, [&](SqliteOperator& db) {
    Progress progress = Progress::on_stderr();
    const op::MessageRedriveResult result =
        message_id ? db.redrive_message(*message_id)
                   : db.redrive_messages(agent_kind, progress);
    print(output, message_redrive_json(result), message_redrive_text(result));
  });
}

int run_replay(const std::string& path, const op::ReplayRequest& request,
               Output output) {
  return with_database(path, [&](SqliteOperator& db) {
    Progress progress = Progress::on_stderr();
    const op::ReplayResult result = db.replay(request, progress);
    print(output, replay_json(result), replay_text(result));
  });
}

}  // namespace herald::tool
