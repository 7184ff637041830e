// A log's emittedAt never decreases with its positions. A commit carries the
// time its handler read when it started, and on the threaded executor a
// handler that started later can commit first: the store stamps an entry
// with the time of the entry before it when that is later, on both
// backends (replay --from-time and the retention read the log's times as
// ordered).
#include <chrono>
#include <vector>

#include <doctest/doctest.h>

#include "commerce/order.h"
#include "forwarding_backend.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/runtime.hpp"
#include "herald/sqlite_backend.hpp"
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

// Each commit that logs an event carries a time one second earlier than the
// one before it: what a later-started handler committing first looks like.
class RewindingBackend final : public ForwardingBackend {
 public:
  using ForwardingBackend::ForwardingBackend;
  void commit(CommitRecord& record) override {
    if (!record.events.empty()) {
      record.now -= std::chrono::seconds(++rewinds_);
    }
    ForwardingBackend::commit(record);
  }

 private:
  int rewinds_ = 0;
};

std::vector<Instant> emitted_times(std::unique_ptr<Backend> store) {
  auto backend = std::make_shared<RewindingBackend>(std::move(store));
  DeterministicExecutor executor(1);
  Runtime rt(deterministic_config({{"log.level", "off"}}), executor, backend);
  rt.install(commerce::order::context());
  std::vector<Instant> times;
  rt.tap(event_type<PaymentConfirmed>(), [&](const LogEntry& entry) {
    times.push_back(entry.envelope.emittedAt);
  });
  for (int i = 1; i <= 4; ++i) {
    auto order = Order::at(rt, OrderId::from_raw("o-" + std::to_string(i)));
    order.place(UserId::from_raw("u"), Money{i, "EUR"});
    order.markPaid(InternalCaller{}, AuthId::from_raw("a"));
  }
  executor.run_all();
  rt.shutdown();
  return times;
}

void check_ordered(const std::vector<Instant>& times) {
  REQUIRE(times.size() == 4);
  for (std::size_t i = 1; i < times.size(); ++i) {
    CAPTURE(i);
    CHECK(times[i - 1] <= times[i]);
  }
}

}  // namespace

TEST_CASE(
    "Memory: an entry committed with an earlier time than the entry before "
    "it is stamped with that entry's time") {
  check_ordered(emitted_times(make_memory_backend({})));
}

TEST_CASE(
    "Sqlite: an entry committed with an earlier time than the entry before "
    "it is stamped with that entry's time") {
  TempDatabase db;
  check_ordered(emitted_times(make_sqlite_backend({.path = db.path})));
}

}  // namespace herald::test
