// Faults around the store never wedge an actor or a host call, Idempotency
// check-then-act across invocations, and the runtime's memory stays bounded
// (agent cache, log, expired keys).
#include <doctest/doctest.h>

#include "herald/id_source.hpp"
#include "herald/service.hpp"
#include "test_world.hpp"

namespace herald::test {
namespace {

// Forwards to a subscription store, failing acknowledge() while told to.
class FlakyStore final : public SubscriptionStore {
 public:
  FlakyStore(SubscriptionStore& inner, const bool& refuse)
      : inner_(inner), refuse_(refuse) {}
  bool recorded(std::string_view p, std::int64_t s) override {
    return inner_.recorded(p, s);
  }
  std::int64_t acknowledged(std::string_view p) override {
    return inner_.acknowledged(p);
  }
  void acknowledge(std::string_view p, std::int64_t s,
                   std::int64_t position) override {
    refuse();
    if (fail_acks > 0) {
      --fail_acks;
      throw std::runtime_error("transport unavailable (injected)");
    }
    inner_.acknowledge(p, s, position);
    ++acks;
  }
  std::int64_t start_position(std::string_view context, std::int64_t start,
                              Instant now) override {
    return inner_.start_position(context, start, now);
  }
  std::int64_t acked_position() override { return inner_.acked_position(); }
  void record_attempt(std::int64_t position, PendingAttempt a) override {
    refuse();
    inner_.record_attempt(position, a);
  }
  std::optional<PendingAttempt> pending_attempt(
      std::int64_t position) override {
    return inner_.pending_attempt(position);
  }
  void dead_letter(DeadLetter letter) override {
    refuse();
    inner_.dead_letter(std::move(letter));
  }
  std::vector<DeadLetter> dead_letters() override {
    return inner_.dead_letters();
  }
  std::optional<DeadLetter> find_dead_letter(const EventId& id) override {
    return inner_.find_dead_letter(id);
  }
  bool mark_redriving(const EventId& id) override {
    return inner_.mark_redriving(id);
  }
  void update_dead_letter(DeadLetter letter) override {
    inner_.update_dead_letter(std::move(letter));
  }

  SubscriptionStore& inner() { return inner_; }
  int fail_acks = 0;
  int acks = 0;  // acknowledge() calls that reached the inner store

 private:
  void refuse() const {
    if (refuse_)
      throw std::runtime_error("database or disk is full (injected)");
  }
  SubscriptionStore& inner_;
  const bool& refuse_;
};

// The memory backend with injectable faults: a failing agent-state load and
// flaky acknowledgements. Commits of a delivery go to the inner store.
class FaultyBackend final : public Backend {
 public:
  FaultyBackend()
      : inner_(make_memory_backend({false, std::chrono::hours(24), {}})) {}
  std::string_view name() const override { return "faulty"; }
  ContextLog& context_log(std::string_view c) override {
    return inner_->context_log(c);
  }
  std::shared_ptr<const void> load_agent_state(const AgentKindBase& kind,
                                               std::string_view key) override {
    if (fail_loads > 0) {
      --fail_loads;
      throw std::runtime_error("state unreadable (injected)");
    }
    return inner_->load_agent_state(kind, key);
  }
  bool idempotency_seen(std::string_view s, std::string_view k,
                        Instant now) override {
    return inner_->idempotency_seen(s, k, now);
  }
  void commit(CommitRecord& record) override {
    if (refuse_writes)
      throw std::runtime_error("database or disk is full (injected)");
    if (record.dedup)
      record.dedup->store =
          &static_cast<FlakyStore*>(record.dedup->store)->inner();
    inner_->commit(record);
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
  void record_message_attempt(const MessageId& id, std::uint32_t n) override {
    inner_->record_message_attempt(id, n);
  }
  void dead_message(DeadMessage m) override {
    inner_->dead_message(std::move(m));
  }
  std::vector<DeadMessage> dead_messages() override {
    return inner_->dead_messages();
  }
  std::size_t purge_expired(Instant now) override {
    return inner_->purge_expired(now);
  }
  Instant latest_time() override { return inner_->latest_time(); }
  std::unique_ptr<Publication> attach(std::string_view context, ContextLog& log,
                                      Router& router,
                                      PublicationOptions options) override {
    return inner_->attach(context, log, router, options);
  }
  SubscriptionStore& subscription_store(std::string_view s) override {
    auto& slot = stores_[std::string(s)];
    if (!slot)
      slot = std::make_unique<FlakyStore>(inner_->subscription_store(s),
                                          refuse_writes);
    return *slot;
  }

  int fail_loads = 0;
  // A full disk: every commit and subscription-store write fails while set.
  bool refuse_writes = false;
  FlakyStore& store(const std::string& s) { return *stores_.at(s); }

 private:
  std::unique_ptr<Backend> inner_;
  std::map<std::string, std::unique_ptr<FlakyStore>> stores_;
};

struct FaultyWorld {
  FaultyWorld()
      : executor(1),
        backend(std::make_shared<FaultyBackend>()),
        rt(deterministic_config({{"retry.base", "1s"}, {"retry.jitter", "0"}}),
           executor, backend, &log) {
    rt.install(commerce::order::context());
    rt.install(commerce::notifications::context(gateway));
  }
  std::vector<std::string> inbox(const std::string& owner) {
    return commerce::notifications::Inbox::at(rt, owner).messages();
  }
  DeterministicExecutor executor;
  MemoryLogSink log;
  SwitchableGateway gateway;
  std::shared_ptr<FaultyBackend> backend;
  Runtime rt;
};

}  // namespace

TEST_CASE(
    "Faults: an agent whose state load throws is released: the host call "
    "faults and the next one runs") {
  FaultyWorld w;
  Order o = Order::at(w.rt, OrderId::from_raw("o-1"));
  w.backend->fail_loads = 1;
  CHECK_THROWS_WITH_AS(o.place(UserId::from_raw("u-1"), Money{5, "EUR"}),
                       doctest::Contains("state unreadable (injected)"),
                       HandlerFault);
  // Not held any more: this would block forever otherwise.
  o.place(UserId::from_raw("u-1"), Money{5, "EUR"});
  o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_all();
  CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-1:5"});
}

TEST_CASE(
    "Faults: a store fault after a delivery committed does not wedge the "
    "subscription") {
  FaultyWorld w;
  w.rt.recover();
  w.backend->store(kAudit).fail_acks = 1;
  for (int i = 1; i <= 3; ++i) {
    Order o = Order::at(w.rt, OrderId::from_raw(fmt::format("o-{}", i)));
    o.place(UserId::from_raw("u-1"), Money{5, "EUR"});
    o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
  }
  w.executor.run_all();
  // The first audit delivery committed, its ack failed: it was tried again,
  // met its dedup record, and the publisher's later events followed.
  CHECK(w.inbox("audit").size() == 3);
  CHECK(w.log.lines("delivery.store_fault").size() == 1);
  const auto m = w.rt.metrics_json()["subscriptions"][kAudit];
  CHECK(m["deduplicated"] == 1);
  CHECK(m["lag"] == 0);
}

TEST_CASE(
    "Acknowledgements: a subscription writes a run of one publisher's "
    "deliveries to its store once, with the highest sequence") {
  FaultyWorld w;
  w.rt.recover();
  const auto confirmed = [](int n) {
    return PaymentConfirmed{OrderId::from_raw(fmt::format("o-{}", n)),
                            UserId::from_raw("u-1"),
                            Money{n, "EUR"},
                            commerce::order::Region::Domestic,
                            {}};
  };
  for (int n = 1; n <= 5; ++n)
    w.rt.publish("commerce.order", "relay-a", confirmed(n));
  for (int n = 6; n <= 7; ++n)
    w.rt.publish("commerce.order", "relay-b", confirmed(n));
  w.executor.run_until_idle();
  CHECK(w.inbox("audit").size() == 7);
  FlakyStore& store = w.backend->store(kAudit);
  // One write when the run moved on to relay-b, one when it ended.
  CHECK(store.acks == 2);
  CHECK(store.inner().acknowledged("relay-a") == 5);
  CHECK(store.inner().acknowledged("relay-b") == 2);
  CHECK(w.rt.metrics_json()["subscriptions"][kAudit]["lag"] == 0);
}

TEST_CASE(
    "Faults: a store that keeps refusing writes leaves a delivery "
    "unacknowledged after retry.max_attempts refusals, and reports it") {
  FaultyWorld w;
  w.rt.recover();
  Order o = Order::at(w.rt, OrderId::from_raw("o-1"));
  o.place(UserId::from_raw("u-1"), Money{5, "EUR"});
  o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.backend->refuse_writes = true;
  w.executor.run_all(std::chrono::hours(1));
  // Each delivery was tried again after 1s, 2s, 4s, 8s (retry.base 1s
  // doubling, retry.max_attempts 5), not every second for the hour.
  const auto faults = w.log.lines("delivery.store_fault");
  const auto refused = w.log.lines("delivery.store_refused");
  REQUIRE_FALSE(refused.empty());
  CHECK(faults.size() == 4 * refused.size());
  CHECK(w.rt.metrics_json()["storeRefused"] == refused.size());
  CHECK(w.executor.pending_timers() == 0);
  // Nothing acknowledged: the audit delivery is still owed.
  w.backend->refuse_writes = false;
  CHECK(w.inbox("audit").empty());
  CHECK(w.rt.metrics_json()["subscriptions"][kAudit]["lag"] == 1);
}

TEST_CASE(
    "Idempotency: seen reserves an absent key until the invocation ends") {
  World w;
  const InvocationSite& site =
      detail::service_site(w.rt(), "commerce.order.Payments");
  ServiceRef payments(w.rt(), "commerce.order.Payments");
  SUBCASE(
      "another invocation of the scope asking meanwhile faults instead of "
      "acting too") {
    payments.call("first", [&](Invocation& tx) {
      CHECK_FALSE(tx.idempotency().seen("charge-1"));
      Invocation other(w.rt(), site, "second", Cause{});
      CHECK_THROWS_AS(other.idempotency().seen("charge-1"),
                      IdempotencyConflict);
      CHECK_FALSE(other.idempotency().seen("charge-2"));  // another key is free
      tx.idempotency().remember("charge-1", std::chrono::hours(1));
    });
    // Committed: every later invocation sees it.
    payments.call("third", [](Invocation& tx) {
      CHECK(tx.idempotency().seen("charge-1"));
    });
  }
  SUBCASE("an invocation that aborts releases its reservation") {
    CHECK_THROWS_AS(
        payments.call("first",
                      [](Invocation& tx) {
                        CHECK_FALSE(tx.idempotency().seen("charge-1"));
                        tx.fail("gateway down");
                      }),
        HandlerFault);
    payments.call("again", [](Invocation& tx) {
      CHECK_FALSE(tx.idempotency().seen("charge-1"));
    });
  }
}

TEST_CASE(
    "Bounded: idle agent instances past agents.max_cached are dropped and "
    "their "
    "state stays") {
  World w(1, {{"agents.max_cached", "8"}});
  for (int i = 0; i < 100; ++i) w.order(fmt::format("o-{}", i), "u-1", i + 1);
  w.run_all();
  // Orders and the one Inbox: bounded by the cap (plus half of what a sweep
  // keeps), not by the 100 orders.
  CHECK(w.rt().cached_agents() <= 8 + 8 / 2 + 2);
  CHECK(Order::at(w.rt(), OrderId::from_raw("o-3")).statusOf() ==
        commerce::order::Status::Pending);
  Order::at(w.rt(), OrderId::from_raw("o-3"))
      .markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.run_all();
  CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-3:4"});
}

TEST_CASE(
    "Bounded: the log is truncated once every subscription settled an entry, "
    "or kept for the retention") {
  SUBCASE("no retention") {
    World w;
    for (int i = 0; i < 20; ++i)
      w.order(fmt::format("o-{}", i), "u-1")
          .markPaid(InternalCaller{}, AuthId::from_raw("a"));
    w.run_all();
    // The last fan-out run truncates what was settled before it.
    w.order("o-last", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
    w.run_all();
    auto& log = w.rt().store().context_log("commerce.order");
    CHECK(log.head() == 21);
    CHECK(log.size() <= 1);
  }
  SUBCASE("with backend.log_retention") {
    World w(1, {{"backend.log_retention", "1h"}});
    for (int i = 0; i < 20; ++i)
      w.order(fmt::format("o-{}", i), "u-1")
          .markPaid(InternalCaller{}, AuthId::from_raw("a"));
    w.run_all();
    w.order("o-next", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
    w.run_all();
    auto& log = w.rt().store().context_log("commerce.order");
    CHECK(log.size() == 21);  // kept for replay
    w.executor.advance(std::chrono::hours(2));
    w.order("o-last", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
    w.run_all();
    CHECK(log.size() <= 1);
  }
}

TEST_CASE(
    "Bounded: expired Idempotency keys and supplied eventIds are purged") {
  World w(1, {{"dedup.window", "1h"}});
  ServiceRef payments(w.rt(), "commerce.order.Payments");
  for (int i = 0; i < 50; ++i) {
    payments.call("remember", [i](Invocation& tx) {
      tx.idempotency().remember(fmt::format("k-{}", i),
                                std::chrono::minutes(30));
    });
  }
  PaymentConfirmed e{OrderId::from_raw("o-9"),
                     UserId::from_raw("u-9"),
                     Money{5, "EUR"},
                     commerce::order::Region::Domestic,
                     {}};
  for (int i = 0; i < 10; ++i)
    w.rt().publish("commerce.order", "relay", e, new_event_id());
  CHECK(w.rt().store().purge_expired(w.executor.now()) == 0);
  w.executor.advance(std::chrono::hours(2));
  CHECK(w.rt().store().purge_expired(w.executor.now()) == 60);
  CHECK(w.rt().store().purge_expired(w.executor.now()) == 0);
}

TEST_CASE(
    "Dead letters: redrive_all re-drives every letter once, in one pass") {
  World w(1, {{"retry.max_attempts", "1"}});
  w.gateway.always_fail = true;
  for (int i = 0; i < 200; ++i)
    w.order(fmt::format("o-{}", i), "intl-1")
        .markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.run_all();
  REQUIRE(w.rt().dead_letters(kInternational).size() == 200);
  w.gateway.always_fail = false;
  CHECK(w.rt().redrive_all(kInternational) == 200);
  CHECK(w.rt().redrive_all(kInternational) == 0);  // all being re-driven
  w.run_all();
  CHECK(w.rt().dead_letters(kInternational).empty());
  CHECK(w.gateway.sent.size() == 200);
}

}  // namespace herald::test
