// herald: the operator tool. Inspects and repairs a stopped program's sqlite
// database (tools/herald/README.md); the commands live in tools/herald/*.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "herald/config.hpp"
#include "herald/errors.hpp"
#include "herald/event_id.hpp"
#include "herald/time.hpp"
#include "tools/herald/commands.hpp"
#include "tools/herald/unknown_command.hpp"

namespace herald::tool {
namespace {

enum class Command {
  None,
  Status,
  List,
  Show,
  Redrive,
  MessagesList,
  MessagesShow,
  MessagesRedrive,
  Replay
};

// An event id in the canonical lowercase form, or a usage error.
std::string canonical_event_id(const std::string& text) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  const std::optional<EventId> id = EventId::parse(lower);
  if (!id) return {};
  return id->str();
}

// A UUID argument (an event's or a message's id) made canonical.
CLI::Validator id_validator(const char* what, const char* type_name) {
  return CLI::Validator(
      [what](std::string& value) -> std::string {
        const std::string canonical = canonical_event_id(value);
        if (canonical.empty())
          return fmt::format("'{}' is not {} (8-4-4-4-12 hex digits)", value,
                             what);
        value = canonical;
        return {};
      },
      type_name);
}

const CLI::Validator kEventId = id_validator("an event id", "EVENT_ID");
const CLI::Validator kMessageId = id_validator("a message id", "MESSAGE_ID");

const CLI::Validator kInstant(
    [](std::string& value) -> std::string {
      try {
        parse_instant(value);
      } catch (const std::invalid_argument&) {
        return fmt::format(
            "'{}' is not an ISO-8601 UTC time such as 2026-12-02T07:00:00Z",
            value);
      }
      return {};
    },
    "TIME");

std::optional<std::string> given(const CLI::Option* option,
                                 const std::string& value) {
  if (option->count() == 0) return std::nullopt;
  return value;
}

int run(int argc, char** argv) {
  CLI::App app(
      "herald: inspect and repair a stopped Herald program's sqlite "
      "database",
      "herald");
  app.set_version_flag("--version", std::string("herald ") + HERALD_VERSION);
  app.footer(
      "Exit status: 0 done, 1 refused or not found, 2 usage, 3 internal "
      "error, 4 status of a nats node without its servers' part.\n"
      "Operate on a stopped program's database; its next start applies "
      "re-drives and replays.");
  app.fallthrough();
  app.require_subcommand(1);
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return fmt::format("herald: error: {}\nRun 'herald --help' for usage.\n",
                       e.what());
  });

  std::string db;
  app.add_option("--db", db,
                 "The program's database file (default: the --config "
                 "file's backend.sqlite.path)")
      ->envname("HERALD_DB")
      ->type_name("PATH");
  std::string configFile;
  app.add_option("--config", configFile,
                 "The program's configuration file, as the program reads it "
                 "(with its HERALD_* variables); on a nats node, status "
                 "reads its streams and consumers too")
      ->envname("HERALD_CONFIG")
      ->type_name("FILE");
  Output output;
  app.add_flag("--json", output.json, "Print the result as JSON on stdout");

  Command command = Command::None;

  CLI::App* status = app.add_subcommand(
      "status", "Subscriptions, agents, logs and agent messages");
  status->callback([&] { command = Command::Status; });

  CLI::App* letters =
      app.add_subcommand("dead-letters", "Inspect and re-drive dead letters");
  letters->require_subcommand(1);
  std::string subscription;
  CLI::Option* subscriptionOption =
      letters
          ->add_option("--subscription", subscription,
                       "Only the letters of this subscription")
          ->type_name("NAME");
  letters->fallthrough();

  CLI::App* list = letters->add_subcommand("list", "One line per letter");
  list->callback([&] { command = Command::List; });

  std::string eventId;
  CLI::App* show = letters->add_subcommand(
      "show", "Every field of an event's letters, its payload pretty-printed");
  show->add_option("EVENT_ID", eventId, "The event's id")
      ->required()
      ->transform(kEventId);
  show->callback([&] { command = Command::Show; });

  CLI::App* redrive = letters->add_subcommand(
      "redrive", "Mark letters for re-drive at the program's next start");
  CLI::Option* redriveId =
      redrive->add_option("EVENT_ID", eventId, "The event's id")
          ->transform(kEventId);
  bool all = false;
  CLI::Option* redriveAll =
      redrive->add_flag("--all", all, "Every letter (of --subscription)");
  redriveId->excludes(redriveAll);
  redrive->callback([&] { command = Command::Redrive; });

  CLI::App* messages = app.add_subcommand(
      "messages", "Inspect and re-drive dead agent messages");
  messages->require_subcommand(1);
  std::string agentKind;
  CLI::Option* agentOption =
      messages
          ->add_option("--agent", agentKind,
                       "Only the messages to this agent kind")
          ->type_name("KIND");
  messages->fallthrough();

  CLI::App* messagesList =
      messages->add_subcommand("list", "One line per dead message");
  messagesList->callback([&] { command = Command::MessagesList; });

  std::string messageId;
  CLI::App* messagesShow = messages->add_subcommand(
      "show", "Every field of a dead message, its arguments pretty-printed");
  messagesShow->add_option("MESSAGE_ID", messageId, "The message's id")
      ->required()
      ->transform(kMessageId);
  messagesShow->callback([&] { command = Command::MessagesShow; });

  CLI::App* messagesRedrive = messages->add_subcommand(
      "redrive",
      "Make dead messages pending again; the program's next start runs them");
  CLI::Option* messageRedriveId =
      messagesRedrive->add_option("MESSAGE_ID", messageId, "The message's id")
          ->transform(kMessageId);
  bool allMessages = false;
  CLI::Option* messagesRedriveAll = messagesRedrive->add_flag(
      "--all", allMessages, "Every dead message (to --agent)");
  messageRedriveId->excludes(messagesRedriveAll);
  messagesRedrive->callback([&] { command = Command::MessagesRedrive; });

  op::ReplayRequest request;
  CLI::App* replay = app.add_subcommand(
      "replay",
      "Deliver a subscription's retained log again at the program's next "
      "start");
  replay->add_option("SUBSCRIPTION", request.subscription, "The subscription")
      ->required();
  CLI::Option_group* from = replay->add_option_group(
      "from", "Where the replay starts, per publisher");
  std::int64_t fromSequence = 0;
  from->add_option("--from-sequence", fromSequence,
                   "The first sequence to replay of each publisher")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  std::string fromTime;
  CLI::Option* fromTimeOption =
      from->add_option("--from-time", fromTime,
                       "Each publisher's first entry emitted at or after T "
                       "(ISO-8601 UTC, 2026-12-02T07:00:00Z)")
          ->type_name("T")
          ->check(kInstant);
  from->require_option(1);
  std::string publisher;
  CLI::Option* publisherOption =
      replay->add_option("--publisher", publisher, "Only this publisher's log")
          ->type_name("P");
  replay->add_flag("--force", request.force,
                   "Run the handlers again for what was delivered (lower the "
                   "dedup mark too)");
  replay->callback([&] { command = Command::Replay; });

  if (auto error = unknown_command(app, argc, argv)) {
    fmt::print(stderr, "herald: error: {}\nRun 'herald --help' for usage.\n",
               *error);
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  std::optional<RuntimeConfig> config;
  if (!configFile.empty()) {
    try {
      ConfigSources sources;
      sources.file = configFile;
      config = load_config(sources);
    } catch (const ConfigError& e) {
      fmt::print(stderr, "herald: error: {}\n", e.what());
      return kExitRefused;
    }
    if (db.empty()) db = config->backend_sqlite_path;
  }
  if (db.empty()) {
    fmt::print(stderr,
               "herald: error: no database: give --db PATH (or HERALD_DB), "
               "or --config FILE naming backend.sqlite.path\n"
               "Run 'herald --help' for usage.\n");
    return kExitUsage;
  }

  switch (command) {
    case Command::Status:
      return run_status(db, config ? &*config : nullptr, output);
    case Command::List:
      return run_dead_letters_list(db, given(subscriptionOption, subscription),
                                   output);
    case Command::Show:
      return run_dead_letters_show(
          db, eventId, given(subscriptionOption, subscription), output);
    case Command::Redrive:
      if (!all && redriveId->count() == 0) {
        fmt::print(stderr,
                   "herald: error: redrive needs an EVENT_ID or --all\n"
                   "Run 'herald --help' for usage.\n");
        return kExitUsage;
      }
      return run_dead_letters_redrive(db, given(redriveId, eventId),
                                      given(subscriptionOption, subscription),
                                      output);
    case Command::MessagesList:
      return run_messages_list(db, given(agentOption, agentKind), output);
    case Command::MessagesShow:
      return run_messages_show(db, messageId, output);
    case Command::MessagesRedrive:
      if (!allMessages && messageRedriveId->count() == 0) {
        fmt::print(stderr,
                   "herald: error: redrive needs a MESSAGE_ID or --all\n"
                   "Run 'herald --help' for usage.\n");
        return kExitUsage;
      }
      return run_messages_redrive(db, given(messageRedriveId, messageId),
                                  given(agentOption, agentKind), output);
    case Command::Replay:
      if (fromTimeOption->count() > 0)
        request.from = parse_instant(fromTime);
      else
        request.from = fromSequence;
      request.publisher = given(publisherOption, publisher);
      return run_replay(db, request, output);
    case Command::None:
      break;
  }
  fmt::print(stderr,
             "herald: error: no command given\nRun 'herald --help' for "
             "usage.\n");
  return kExitUsage;
}

}  // namespace
}  // namespace herald::tool

int main(int argc, char** argv) {
  // Anything that escapes is a bug in herald, never the operator's input;
  // it still ends with a message and a defined status.
  try {
    return herald::tool::run(argc, argv);
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "herald: error: out of memory\n");
  } catch (const std::exception& e) {
    fmt::print(stderr, "herald: internal error: {}\n", e.what());
  }
  return herald::tool::kExitInternal;
}
