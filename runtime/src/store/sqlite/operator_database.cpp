#include "operator_database.hpp"

#include <filesystem>
#include <fstream>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "sqlite_schema.hpp"
#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>

namespace herald::sqlite_detail {
namespace {

// Refuses before the lock file is created next to a database that is not
// there, or next to a file that is not SQLite's: an operator creates
// neither. (An empty file is an empty SQLite database; its schema version
// refuses it.)
const std::string& existing(const std::string& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (!std::filesystem::exists(status))
    throw op::Refusal(fmt::format("{}: no such database", path));
  if (!std::filesystem::is_regular_file(status))
    throw op::Refusal(fmt::format("{}: not a regular file", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw op::Refusal(fmt::format("{}: cannot read the file", path));
  constexpr std::string_view kMagic("SQLite format 3\0", 16);
  std::string header(kMagic.size(), '\0');
  in.read(header.data(), static_cast<std::streamsize>(header.size()));
  if (in.gcount() != 0 && header != kMagic)
    throw op::Refusal(
        fmt::format("{}: not a Herald database (not an SQLite file)", path));
  return path;
}

// The backend's lock; a held one is a refusal, not a failure.
FileLock take_lock(const std::string& path) {
  try {
    return FileLock(existing(path));
  } catch (const op::Refusal&) {
    throw;
  } catch (const Error& e) {
    throw op::Refusal(e.what());
  }
}

SQLite::Database open_file(const std::string& path) {
  try {
    return SQLite::Database(path, SQLite::OPEN_READWRITE);
  } catch (const SQLite::Exception& e) {
    throw op::Refusal(fmt::format("{}: cannot open: {}", path, e.what()));
  }
}

// The schema version, once the file is known to hold every table of a
// layout this build knows.
int checked_schema(SQLite::Database& db, const std::string& path) {
  int version = 0;
  try {
    version = db.execAndGet("PRAGMA user_version").getInt();
  } catch (const SQLite::Exception& e) {
    throw op::Refusal(
        fmt::format("{}: not a Herald database ({})", path, e.what()));
  }
  const int known = sqlite_schema_version();
  if (version > known)
    throw op::Refusal(fmt::format(
        "{}: database schema version {} is newer than this build's {}", path,
        version, known));
  if (version < 1)
    throw op::Refusal(fmt::format(
        "{}: not a Herald database (schema version {})", path, version));
  SQLite::Statement table(
      db,
      "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?");
  for (const char* name : sqlite_schema_tables()) {
    table.bind(1, name);
    table.executeStep();
    if (table.getColumn(0).getInt() != 1)
      throw op::Refusal(
          fmt::format("{}: not a Herald database (no table '{}')", path, name));
    table.reset();
  }
  return version;
}

}  // namespace

OperatorDatabase::OperatorDatabase(std::string path)
    : path_(std::move(path)),
      lock_(take_lock(path_)),
      db_(open_file(path_)),
      schema_version_(checked_schema(db_, path_)) {
  try {
    sql_ = std::make_unique<Statements>(db_);
  } catch (const SQLite::Exception& e) {
    throw op::DatabaseError(fmt::format("{}: {}", path_, e.what()));
  }
}

}  // namespace herald::sqlite_detail
