// D4 under sqlite group commit: a commit whose agent state does not encode
// (a String that is not valid UTF-8) faults its own handler only; the other
// commits grouped into the same transaction commit.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <doctest/doctest.h>

#include "commerce/notifications.h"
#include "commerce/order.h"
#include "herald/backend.hpp"
#include "herald/config.hpp"
#include "herald/errors.hpp"
#include "herald/runtime.hpp"
#include "herald/sqlite_backend.hpp"
#include "herald/threaded_executor.hpp"
#include "temp_database.hpp"

namespace herald::test {
namespace {

using commerce::order::Money;
using commerce::order::Order;
using commerce::order::OrderId;
using commerce::order::UserId;

class QuietGateway final : public commerce::notifications::Gateway {
 public:
  void notify(const UserId& /*user*/, const std::string& /*text*/) override {}
};

// Holds the first commit's batch open until the others were handed in, so
// that they share the next batch.
struct BatchGate {
  std::mutex mutex;
  std::condition_variable changed;
  bool holding = false;  // the first batch waits in its commit hook
  int ready = 0;         // callers about to commit
  bool go = false;
  std::atomic<bool> armed{false};

  void hook(CommitPoint point) {
    if (point != CommitPoint::before_apply || !armed.exchange(false)) return;
    std::unique_lock lock(mutex);
    holding = true;
    changed.notify_all();
    changed.wait(lock, [&] { return ready == 2; });
    go = true;
    changed.notify_all();
    lock.unlock();
    // The two callers run their handlers and queue their commits behind
    // this batch meanwhile.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  void wait_holding() {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return holding; });
  }
  void arrive_and_wait() {
    std::unique_lock lock(mutex);
    ++ready;
    changed.notify_all();
    changed.wait(lock, [&] { return go; });
  }
};

RuntimeConfig threaded_config() {
  ConfigSources s;
  s.environment = std::map<std::string, std::string>{};
  s.settings = {{"executor.kind", "threaded"}, {"log.level", "off"}};
  return load_config(s);
}

}  // namespace

TEST_CASE(
    "Sqlite group commit: agent state that does not encode faults its own "
    "commit, the others in the same batch commit") {
  TempDatabase db;
  BatchGate gate;
  SqliteBackendOptions options;
  options.path = db.path;
  options.commit_hook = [&](CommitPoint point) { gate.hook(point); };
  ThreadedExecutor executor(2);
  QuietGateway gateway;
  Runtime rt(threaded_config(), executor, make_sqlite_backend(options));
  rt.install(commerce::order::context());
  rt.install(commerce::notifications::context(gateway));
  Order bad = Order::at(rt, OrderId::from_raw("bad"));
  Order good = Order::at(rt, OrderId::from_raw("good"));
  // Loaded now, so that neither call reads the store while the first
  // batch holds it.
  CHECK_FALSE(bad.state().customer.has_value());
  CHECK_FALSE(good.state().customer.has_value());

  std::optional<std::string> bad_fault;
  FaultKind bad_kind = FaultKind::host;
  std::optional<std::string> good_fault;
  gate.armed = true;
  std::thread first([&] {
    Order::at(rt, OrderId::from_raw("first"))
        .place(UserId::from_raw("u-0"), Money{1, "EUR"});
  });
  gate.wait_holding();
  std::thread bad_caller([&] {
    gate.arrive_and_wait();
    try {
      bad.place(UserId::from_raw("caf\xe9"), Money{2, "EUR"});
    } catch (const HandlerFault& e) {
      bad_fault = e.what();
      bad_kind = e.kind();
    }
  });
  std::thread good_caller([&] {
    gate.arrive_and_wait();
    try {
      good.place(UserId::from_raw("u-2"), Money{3, "EUR"});
    } catch (const HandlerFault& e) {
      good_fault = e.what();
    }
  });
  first.join();
  bad_caller.join();
  good_caller.join();

  CHECK_FALSE(good_fault.has_value());
  REQUIRE(bad_fault.has_value());
  CHECK(bad_fault->find("does not encode") != std::string::npos);
  CHECK(invalid_utf8_at(*bad_fault) == std::string::npos);
  // The handler's own, deterministic fault: a delivery would not retry it.
  CHECK(bad_kind == FaultKind::invalid_text);
  REQUIRE(good.state().customer.has_value());
  CHECK(good.state().customer->raw() == "u-2");
  CHECK_FALSE(bad.state().customer.has_value());
  rt.shutdown();
}

}  // namespace herald::test
