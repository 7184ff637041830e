#pragma once
// The sqlite backend's tables (runtime/docs/sqlite-schema.md) and their
// migrations: PRAGMA user_version is the schema version; each step takes a
// database from version N to N + 1.
#include <span>
#include <string>

#include <SQLiteCpp/Database.h>

namespace herald {

// The schema version this build writes.
int sqlite_schema_version();

// The names of the tables of this build's layout: a file that lacks one is
// not a Herald database.
std::span<const char* const> sqlite_schema_tables();

// Creates the tables of a new database or migrates an older one forward, in
// one transaction, and records this build in herald_meta. Throws
// herald::Error naming `path` and both versions if the database is newer
// than this build.
void prepare_sqlite_schema(SQLite::Database& db, const std::string& path);

}  // namespace herald
