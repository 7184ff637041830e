#pragma once
// An open Herald database (the sqlite backend's file, see
// tools/herald/README.md): the lock held, the schema version checked. The
// tool never creates a database; it operates on a stopped program's file.
#include <memory>
#include <string>

#include "tools/herald/lock_file.hpp"
#include <SQLiteCpp/Database.h>

namespace herald::tool {

// The schema version (PRAGMA user_version) this build knows.
inline constexpr int kSchemaVersion = 2;

class Database {
 public:
  // Opens the database at `path`: refuses (Refusal) a path that does not
  // exist, a database in use by another process (its lock held), a file
  // that is not a Herald database, and a schema version newer than
  // kSchemaVersion. Holds the lock until destroyed.
  explicit Database(std::string path);

  const std::string& path() const { return path_; }
  SQLite::Database& sql() { return *sql_; }

 private:
  std::string path_;
  LockFile lock_;
  std::unique_ptr<SQLite::Database> sql_;
};

}  // namespace herald::tool
