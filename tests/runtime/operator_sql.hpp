#pragma once
// A second connection to a test's database, as an operator would have: to
// read what the backend wrote, or to change the file behind its back.
#include <cstdint>
#include <string>

#include <SQLiteCpp/Database.h>

namespace herald::test {

inline void execute(const std::string& path, const std::string& sql) {
  SQLite::Database db(path, SQLite::OPEN_READWRITE);
  db.exec(sql);
}

inline std::string query_text(const std::string& path,
                              const std::string& sql) {
  SQLite::Database db(path, SQLite::OPEN_READONLY);
  return db.execAndGet(sql).getString();
}

inline std::int64_t query_int(const std::string& path,
                              const std::string& sql) {
  SQLite::Database db(path, SQLite::OPEN_READONLY);
  return db.execAndGet(sql).getInt64();
}

}  // namespace herald::test
