// A time written to a store never goes backwards across restarts: each
// process's deterministic executor starts its clock at the same instant,
// and recovery floors it at the latest time the store holds.
#include <limits>

#include <doctest/doctest.h>

#include "commerce/order.h"
#include "herald/deterministic_executor.hpp"
#include "herald/local_store.hpp"
#include "herald/runtime.hpp"
#include "herald/threaded_executor.hpp"
#include "temp_database.hpp"
#include "test_world.hpp"

namespace herald::test {
namespace {

using commerce::order::AuthId;
using commerce::order::InternalCaller;
using commerce::order::Money;
using commerce::order::Order;
using commerce::order::OrderId;
using commerce::order::UserId;

void pay(Runtime& rt, const std::string& order) {
  Order o = Order::at(rt, OrderId::from_raw(order));
  o.place(UserId::from_raw("u"), Money{5, "EUR"});
  o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
}

std::vector<Instant> emitted_times(Runtime& rt) {
  std::vector<LogEntryPtr> entries;
  rt.store()
      .context_log("commerce.order")
      .read(0, std::numeric_limits<std::size_t>::max(), entries);
  std::vector<Instant> times;
  times.reserve(entries.size());
  for (const LogEntryPtr& e : entries) times.push_back(e->envelope.emittedAt);
  return times;
}

}  // namespace

TEST_CASE(
    "Two processes over one sqlite database with deterministic executors: "
    "the second's emittedAt never precedes the first's") {
  TempDatabase db;
  Instant first{};
  {
    DeterministicExecutor executor(1);
    Runtime rt(sqlite_config(db.path), executor);
    rt.install(commerce::order::context());
    executor.advance(std::chrono::hours(3));
    pay(rt, "o-1");
    first = executor.now();
  }
  DeterministicExecutor executor(1);
  REQUIRE(executor.now() < first);  // the same start as the first process
  Runtime rt(sqlite_config(db.path), executor);
  rt.install(commerce::order::context());
  rt.recover();
  CHECK(executor.now() >= first);
  pay(rt, "o-2");
  const std::vector<Instant> times = emitted_times(rt);
  REQUIRE(times.size() == 2);
  CHECK(times[0] == first);
  CHECK(times[1] >= times[0]);
}

TEST_CASE("The threaded executor's clock stands at its floor until it passes") {
  ThreadedExecutor executor(1);
  const Instant ahead = executor.now() + std::chrono::hours(1);
  executor.floor_clock(ahead);
  CHECK(executor.now() >= ahead);
  // A lower floor changes nothing.
  executor.floor_clock(ahead - std::chrono::hours(2));
  CHECK(executor.now() >= ahead);
}

}  // namespace herald::test
