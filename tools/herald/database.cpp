#include "tools/herald/database.hpp"

#include <filesystem>
#include <fstream>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "tools/herald/errors.hpp"
#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>

namespace herald::tool {
namespace {

// Refuses before the lock file is created next to a database that is not
// there, or next to a file that is not SQLite's: the tool creates neither.
// (An empty file is an empty SQLite database; its schema version refuses it.)
const std::string& existing(const std::string& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status))
    throw Refusal(fmt::format("{}: no such database", path));
  if (!std::filesystem::is_regular_file(status))
    throw Refusal(fmt::format("{}: not a regular file", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Refusal(fmt::format("{}: cannot read the file", path));
  constexpr std::string_view kMagic("SQLite format 3\0", 16);
  std::string header(kMagic.size(), '\0');
  in.read(header.data(), static_cast<std::streamsize>(header.size()));
  if (in.gcount() != 0 && header != kMagic)
    throw Refusal(
        fmt::format("{}: not a Herald database (not an SQLite file)", path));
  return path;
}

// Every table of the layout; a file that lacks one is not a Herald database.
constexpr const char* kTables[] = {
    "herald_meta",        "agent_state",       "log",          "log_head",
    "publisher_sequence", "supplied_event_id", "subscription", "cursor",
    "pending_attempt",    "dead_letter",       "idempotency",  "agent_message",
    "dead_message"};

void check_schema(SQLite::Database& db, const std::string& path) {
  int version = 0;
  try {
    version = db.execAndGet("PRAGMA user_version").getInt();
  } catch (const SQLite::Exception& e) {
    throw Refusal(
        fmt::format("{}: not a Herald database ({})", path, e.what()));
  }
  if (version > kSchemaVersion)
    throw Refusal(fmt::format(
        "{}: database schema version {} is newer than this build's {}", path,
        version, kSchemaVersion));
  if (version < 1)
    throw Refusal(fmt::format("{}: not a Herald database (schema version {})",
                              path, version));
  SQLite::Statement table(
      db,
      "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?");
  for (const char* name : kTables) {
    table.bind(1, name);
    table.executeStep();
    if (table.getColumn(0).getInt() != 1)
      throw Refusal(
          fmt::format("{}: not a Herald database (no table '{}')", path, name));
    table.reset();
  }
}

}  // namespace

Database::Database(std::string path)
    : path_(std::move(path)), lock_(existing(path_), path_ + ".lock") {
  try {
    sql_ = std::make_unique<SQLite::Database>(path_, SQLite::OPEN_READWRITE);
  } catch (const SQLite::Exception& e) {
    throw Refusal(fmt::format("{}: cannot open: {}", path_, e.what()));
  }
  check_schema(*sql_, path_);
}

}  // namespace herald::tool
