// Nothing that runs after a commit changes its outcome: the periodic purge
// of expired records runs its own write transaction after COMMIT, and when
// another connection holds the database's write lock then, it fails. The
// work committed, so the host call succeeds, the agent's cached state is
// the committed one, and the purge is logged with its reason and tried
// again at the next purge.
#include <doctest/doctest.h>

#include "commerce/order.h"
#include "forwarding_backend.hpp"
#include "herald/backend.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/log.hpp"
#include "herald/runtime.hpp"
#include "herald/sqlite_backend.hpp"
#include "temp_database.hpp"
#include "test_world.hpp"
#include <SQLiteCpp/SQLiteCpp.h>

namespace herald::test {
namespace {

using commerce::order::AuthId;
using commerce::order::InternalCaller;
using commerce::order::Money;
using commerce::order::Order;
using commerce::order::OrderId;
using commerce::order::Status;
using commerce::order::UserId;

// The runtime purges after every 4096th commit (RuntimeImpl::maybe_purge).
constexpr int kPurgeEvery = 4096;

// The sqlite backend; right after its `lock_after`-th commit returns, a
// second connection takes the database's write lock (BEGIN IMMEDIATE) and
// keeps it until release().
class LockingBackend final : public ForwardingBackend {
 public:
  LockingBackend(const std::string& path, int lock_after)
      : ForwardingBackend(make_sqlite_backend(
            {.path = path,
             .synchronous = SqliteSynchronous::normal,
             .busy_timeout = std::chrono::milliseconds(20)})),
        path_(path),
        lock_after_(lock_after) {}
  std::size_t purge_expired(Instant now) override {
    ++purges;
    return ForwardingBackend::purge_expired(now);
  }
  void commit(CommitRecord& record) override {
    ForwardingBackend::commit(record);
    if (++commits_ == lock_after_) {
      locker_.emplace(path_, SQLite::OPEN_READWRITE);
      locker_->exec("BEGIN IMMEDIATE");
    }
  }
  void release() {
    locker_->exec("ROLLBACK");
    locker_.reset();
  }
  int purges = 0;

 private:
  std::string path_;
  int lock_after_;
  int commits_ = 0;
  std::optional<SQLite::Database> locker_;
};

}  // namespace

TEST_CASE(
    "A purge that fails after a commit (the database locked) neither fails "
    "the host call nor leaves the agent's cached state stale") {
  TempDatabase db;
  const OrderId id = OrderId::from_raw("o-1");
  {
    auto backend = std::make_shared<LockingBackend>(db.path, kPurgeEvery);
    DeterministicExecutor executor(1);
    MemoryLogSink log;
    Runtime rt(deterministic_config(), executor, backend, &log);
    rt.install(commerce::order::context());
    for (int i = 1; i < kPurgeEvery; ++i)
      Order::at(rt, id).place(UserId::from_raw("u"), Money{i, "EUR"});
    REQUIRE(backend->purges == 0);
    // The commit that triggers the purge: it commits, then the purge meets
    // the lock.
    CHECK_NOTHROW(
        Order::at(rt, id).markPaid(InternalCaller{}, AuthId::from_raw("a")));
    CHECK(backend->purges == 1);
    const auto failed = log.lines("store.purge_failed");
    CHECK(failed.size() == 1);
    if (failed.size() == 1) {
      CHECK(failed[0]["reason"] == "store_error");
      CHECK(failed[0]["level"] == "warn");
    }
    backend->release();
    CHECK(Order::at(rt, id).statusOf() == Status::Paid);
    // The next change starts from the committed state: the payment stays.
    Order::at(rt, id).place(UserId::from_raw("u"), Money{1, "EUR"});
    CHECK(Order::at(rt, id).statusOf() == Status::Paid);
    rt.shutdown();
  }
  // And the store has it.
  DeterministicExecutor executor(1);
  Runtime rt(deterministic_config({{"backend.kind", "sqlite"},
                                   {"backend.sqlite.path", db.path},
                                   {"log.level", "off"}}),
             executor);
  rt.install(commerce::order::context());
  CHECK(Order::at(rt, id).statusOf() == Status::Paid);
}

}  // namespace herald::test
