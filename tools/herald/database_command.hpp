#pragma once
// What every command does around its work: open the database through the
// operator API, map a refusal or a database error to its exit status and
// one line on stderr, print the result in the form asked for.
#include <string>

#include <fmt/format.h>

#include "herald/sqlite_operator.hpp"
#include "tools/herald/commands.hpp"
#include "tools/herald/json_output.hpp"

namespace herald::tool {

inline void print_error(const std::string& message) {
  fmt::print(stderr, "herald: error: {}\n", message);
}

// Opens the database, runs `work` over it and maps what can go wrong to an
// exit status; the operator's messages name the file.
template <typename Work>
int with_database(const std::string& path, Work work) {
  try {
    SqliteOperator db(path);
    work(db);
    return kExitOk;
  } catch (const op::Refusal& e) {
    print_error(e.what());
  } catch (const op::DatabaseError& e) {
    print_error(e.what());
  }
  return kExitRefused;
}

inline void print(const Output& output, const Json& json,
                  const std::string& text) {
  if (output.json)
    fmt::print("{}\n", json.dump(2));
  else
    fmt::print("{}", text);
}

}  // namespace herald::tool
