// Nothing that runs after a commit changes its outcome: the periodic purge
// of expired records runs its own write transaction after COMMIT, and when
// another connection holds the database's write lock then, it fails. The
// work committed, so the host call succeeds, the agent's cached state is
// the committed one, and the purge is logged with its reason and tried
// again at the next purge.
#include <doctest/doctest.h>

#include "commerce/order.h"
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
class LockingBackend final : public Backend {
 public:
  LockingBackend(const std::string& path, int lock_after)
      : inner_(make_sqlite_backend(
            {.path = path,
             .synchronous = SqliteSynchronous::normal,
             .busy_timeout = std::chrono::milliseconds(20)})),
        path_(path),
        lock_after_(lock_after) {}
  std::string_view name() const override { return inner_->name(); }
  ContextLog& context_log(std::string_view context) override {
    return inner_->context_log(context);
  }
  std::unique_ptr<Publication> attach(std::string_view context, ContextLog& log,
                                      Router& router,
                                      PublicationOptions options) override {
    return inner_->attach(context, log, router, options);
  }
  SubscriptionStore& subscription_store(
      std::string_view subscription) override {
    return inner_->subscription_store(subscription);
  }
  std::shared_ptr<const void> load_agent_state(const AgentKindBase& kind,
                                               std::string_view key) override {
    return inner_->load_agent_state(kind, key);
  }
  bool idempotency_seen(std::string_view scope, std::string_view key,
                        Instant now) override {
    return inner_->idempotency_seen(scope, key, now);
  }
  std::vector<AgentMessage> pending_messages() override {
    return inner_->pending_messages();
  }
  bool message_pending(const MessageId& id) override {
    return inner_->message_pending(id);
  }
  std::uint32_t message_attempts(const MessageId& id) override {
    return inner_->message_attempts(id);
  }
  void record_message_attempt(const MessageId& id,
                              std::uint32_t attempts) override {
    inner_->record_message_attempt(id, attempts);
  }
  void dead_message(DeadMessage message) override {
    inner_->dead_message(std::move(message));
  }
  std::vector<DeadMessage> dead_messages() override {
    return inner_->dead_messages();
  }
  std::size_t purge_expired(Instant now) override {
    ++purges;
    return inner_->purge_expired(now);
  }
  Instant latest_time() override { return inner_->latest_time(); }
  void commit(CommitRecord& record) override {
    inner_->commit(record);
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
  std::unique_ptr<Backend> inner_;
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
