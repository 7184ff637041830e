#include "tools/herald/commands.hpp"

#include <exception>

#include <fmt/format.h>

#include "tools/herald/database.hpp"
#include "tools/herald/errors.hpp"
#include "tools/herald/json_output.hpp"
#include "tools/herald/progress.hpp"
#include "tools/herald/text_output.hpp"
#include <SQLiteCpp/Exception.h>

namespace herald::tool {
namespace {

void print_error(const std::string& message) {
  fmt::print(stderr, "herald: error: {}\n", message);
}

// Opens the database, runs `work` over it and maps what can go wrong to an
// exit status with a message naming the file.
template <typename Work>
int with_database(const std::string& path, Work work) {
  try {
    Database db(path);
    work(db);
    return kExitOk;
  } catch (const Refusal& e) {
    print_error(e.what());
  } catch (const SQLite::Exception& e) {
    print_error(fmt::format("{}: {}", path, e.what()));
  }
  return kExitRefused;
}

void print(const Output& output, const Json& json, const std::string& text) {
  if (output.json)
    fmt::print("{}\n", json.dump(2));
  else
    fmt::print("{}", text);
}

}  // namespace

int run_status(const std::string& path, Output output) {
  return with_database(path, [&](Database& db) {
    const Status status = read_status(db);
    print(output, status_json(status), status_text(status));
  });
}

int run_dead_letters_list(const std::string& path,
                          const std::optional<std::string>& subscription,
                          Output output) {
  return with_database(path, [&](Database& db) {
    const auto letters = list_dead_letters(db, subscription);
    print(output, dead_letters_json(letters), dead_letter_list_text(letters));
  });
}

int run_dead_letters_show(const std::string& path, const std::string& event_id,
                          const std::optional<std::string>& subscription,
                          Output output) {
  return with_database(path, [&](Database& db) {
    const auto letters = find_dead_letters(db, event_id, subscription);
    print(output, dead_letters_json(letters), dead_letter_text(letters));
  });
}

int run_dead_letters_redrive(const std::string& path,
                             const std::optional<std::string>& event_id,
                             const std::optional<std::string>& subscription,
                             Output output) {
  return with_database(path, [&](Database& db) {
    Progress progress = Progress::on_stderr();
    const RedriveResult result =
        event_id ? redrive_dead_letter(db, *event_id, subscription)
                 : redrive_all_dead_letters(db, subscription, progress);
    print(output, redrive_json(result), redrive_text(result));
  });
}

int run_replay(const std::string& path, const ReplayRequest& request,
               Output output) {
  return with_database(path, [&](Database& db) {
    Progress progress = Progress::on_stderr();
    const ReplayResult result = replay(db, request, progress);
    print(output, replay_json(result), replay_text(result));
  });
}

}  // namespace herald::tool
