// The sqlite backend's exclusive locking mode (SqliteBackendOptions::
// exclusive, what a nats node opens its store with): while the backend is
// open no other connection reads or writes the file and there is no shared
// WAL index; once it closes, everything it committed is in the file. In the
// normal mode another connection reads the file while the backend is open.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <doctest/doctest.h>

#include "commerce/order.h"
#include "herald/backend.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/runtime.hpp"
#include "herald/sqlite_backend.hpp"
#include "temp_database.hpp"
#include "test_world.hpp"
#include <SQLiteCpp/SQLiteCpp.h>

namespace herald::test {
namespace {

using commerce::order::Money;
using commerce::order::Order;
using commerce::order::OrderId;
using commerce::order::UserId;

// The agent states another connection reads in the file, or nullopt when
// the file is locked against it.
std::optional<int> states_read_by_another_connection(const std::string& path) {
  SQLite::Database other(path, SQLite::OPEN_READWRITE);
  try {
    return other.execAndGet("SELECT count(*) FROM agent_state").getInt();
  } catch (const SQLite::Exception&) {
    return std::nullopt;
  }
}

}  // namespace

TEST_CASE(
    "Sqlite, exclusive locking mode: the file is the backend's alone while "
    "it is open, and holds what it committed once it closes") {
  for (const bool exclusive : {false, true}) {
    CAPTURE(exclusive);
    TempDatabase db;
    {
      std::shared_ptr<Backend> backend =
          make_sqlite_backend({.path = db.path,
                               .synchronous = SqliteSynchronous::normal,
                               .busy_timeout = std::chrono::milliseconds(20),
                               .exclusive = exclusive});
      DeterministicExecutor executor(1);
      Runtime rt(deterministic_config(), executor, backend);
      rt.install(commerce::order::context());
      Order::at(rt, OrderId::from_raw("o-1"))
          .place(UserId::from_raw("u"), Money{1, "EUR"});
      Order::at(rt, OrderId::from_raw("o-2"))
          .place(UserId::from_raw("u"), Money{2, "EUR"});
      const auto seen = states_read_by_another_connection(db.path);
      if (exclusive) {
        CHECK_FALSE(seen.has_value());
        CHECK_FALSE(std::filesystem::exists(db.path + "-shm"));
      } else {
        CHECK(seen == 2);
      }
      rt.shutdown();
    }
    CHECK(states_read_by_another_connection(db.path) == 2);
  }
}

}  // namespace herald::test
