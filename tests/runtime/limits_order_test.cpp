// D10 limits, D11 order and reproducibility, crash and restart.
#include <set>

#include <doctest/doctest.h>

#include "test_world.hpp"

namespace test_loop {
struct Ping {
  std::int64_t n = 0;
};
inline void to_json(nlohmann::json& j, const Ping& p) { j = {{"n", p.n}}; }
inline void from_json(const nlohmann::json& j, Ping& p) {
  p.n = j.at("n").get<std::int64_t>();
}
}  // namespace test_loop

template <>
struct herald::EventInfo<test_loop::Ping> {
  static constexpr std::string_view owner = "test.loop";
  static constexpr std::string_view name = "test.loop.Ping";
  static constexpr std::int64_t schema_version = 1;
  static constexpr std::size_t max_encoded_bytes = 32;  // {"n":<int64>}
};

namespace herald::test {

TEST_CASE(
    "D10: a payload past limits.payload_bytes faults the emitting handler and "
    "loses nothing") {
  World w;
  Order o = w.order("o-1", std::string(70'000, 'x'));
  CHECK_THROWS_WITH_AS(o.markPaid(InternalCaller{}, AuthId::from_raw("a")),
                       doctest::Contains("limits.payload_bytes = 65536"),
                       HandlerFault);
  CHECK(o.statusOf() ==
        commerce::order::Status::Pending);  // the order is intact; the call can
                                            // be retried
  w.executor.run_until_idle();
  CHECK(w.type_metric(kPaymentConfirmed, "released") == 0);
  // Within the limit it goes through.
  Order p = w.order("o-2", std::string(60'000, 'x'));
  p.markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_until_idle();
  CHECK(w.type_metric(kPaymentConfirmed, "released") == 1);
}

TEST_CASE(
    "D10: more than limits.emits_per_invocation emissions fault the handler") {
  World w;
  Order o = w.order("o-1", "u-1");
  CHECK_THROWS_WITH_AS(
      o.splitPayment(InternalCaller{}, 1025),
      doctest::Contains("more than limits.emits_per_invocation = 1024"),
      HandlerFault);
  CHECK(w.rt().store().context_log("commerce.order").head() == 0);
  o.splitPayment(InternalCaller{}, 1024);
  w.executor.run_until_idle();
  CHECK(w.type_metric(kPaymentConfirmed, "released") == 1024);
}

TEST_CASE(
    "D10: an emission past limits.cascade_depth faults and the event is "
    "dead-lettered, not lost") {
  std::int64_t deepest = -1;
  World w(1, {{"retry.max_attempts", "2"}}, [&](Runtime& rt) {
    Context loop("test.loop");
    loop.owns<test_loop::Ping>();
    loop.subscribe<test_loop::Ping>(
        {.service = "test.loop.Echo",
         .handler = [&](Invocation& tx, const test_loop::Ping& p,
                        const EventEnvelope& env) {
           deepest = std::max(deepest, env.depth);
           tx.events().emit(test_loop::Ping{p.n + 1});
         }});
    rt.install(std::move(loop));
  });
  w.rt().publish("test.loop", "host", test_loop::Ping{0});
  w.executor.run_all();
  CHECK(deepest == 16);
  const auto letters = w.rt().dead_letters("test.loop.Echo");
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].event->envelope.depth == 16);
  CHECK(letters[0].last_error.find("past limits.cascade_depth = 16") !=
        std::string::npos);
  CHECK(w.type_metric("test.loop.Ping", "released") == 17);
}

TEST_CASE(
    "D10: more than limits.subscriptions_per_event_type subscriptions is a "
    "registration error") {
  World w;
  Context many("test.many");
  for (int i = 0; i < 510; ++i) {  // the fixture already has 3
    many.subscribe<PaymentConfirmed>(
        {.service = fmt::format("test.many.S{:03}", i),
         .handler = [](Invocation&, const PaymentConfirmed&,
                       const EventEnvelope&) {}});
  }
  CHECK_THROWS_WITH_AS(
      w.rt().install(std::move(many)),
      doctest::Contains(
          "513 subscriptions, past limits.subscriptions_per_event_type = 512"),
      RegistrationError);
  CHECK(w.rt().subscriptions_of(event_type<PaymentConfirmed>()).size() == 3);
  Context fits("test.fits");
  for (int i = 0; i < 509; ++i) {
    fits.subscribe<PaymentConfirmed>(
        {.service = fmt::format("test.fits.S{:03}", i),
         .handler = [](Invocation&, const PaymentConfirmed&,
                       const EventEnvelope&) {}});
  }
  w.rt().install(std::move(fits));
  CHECK(w.rt().subscriptions_of(event_type<PaymentConfirmed>()).size() == 512);
}

TEST_CASE(
    "D10: the runtime refuses an event released for a context that does not "
    "own its type") {
  World w(1, {}, [](Runtime& rt) {
    Context rogue("test.rogue");
    rogue.subscribe<commerce::notifications::ReceiptIssued>(
        {.service = "test.rogue.Forge",
         .handler = [](Invocation& tx,
                       const commerce::notifications::ReceiptIssued&,
                       const EventEnvelope&) {
           tx.events().emit(PaymentConfirmed{OrderId::from_raw("x"),
                                             UserId::from_raw("y"),
                                             Money{1, "EUR"},
                                             commerce::order::Region::Domestic,
                                             {}});
         }});
    rt.install(std::move(rogue));
  });
  PaymentConfirmed e{OrderId::from_raw("o-1"),
                     UserId::from_raw("u-1"),
                     Money{1, "EUR"},
                     commerce::order::Region::Domestic,
                     {}};
  CHECK_THROWS_WITH_AS(w.rt().publish("commerce.notifications", "host", e),
                       doctest::Contains("owned by 'commerce.order'"),
                       OwnershipError);
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_all();
  const auto letters = w.rt().dead_letters("test.rogue.Forge");
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].last_error.find(
            "cannot emit commerce.order.PaymentConfirmed") !=
        std::string::npos);
  CHECK(w.type_metric(kPaymentConfirmed, "released") ==
        1);  // only the genuine one
}

TEST_CASE(
    "Registration: ownership, names and timing are checked when a context is "
    "installed") {
  World w;
  Context foreign("test.foreign");
  foreign.owns<PaymentConfirmed>();
  CHECK_THROWS_WITH_AS(
      w.rt().install(std::move(foreign)),
      doctest::Contains("registers commerce.order.PaymentConfirmed as its own, "
                        "but the event type "
                        "belongs to 'commerce.order'"),
      RegistrationError);
  CHECK_THROWS_WITH_AS(w.rt().install(commerce::order::context()),
                       "context 'commerce.order' is installed twice",
                       RegistrationError);
  Context misnamed("test.misnamed");
  misnamed.subscribe<PaymentConfirmed>(
      {.service = "other.Service",
       .handler = [](Invocation&, const PaymentConfirmed&,
                     const EventEnvelope&) {}});
  CHECK_THROWS_WITH_AS(
      w.rt().install(std::move(misnamed)),
      doctest::Contains("must be named 'test.misnamed.<Service>'"),
      RegistrationError);
  w.order("o-1", "u-1");  // the first host call fixes the routing table
  CHECK_THROWS_WITH_AS(
      w.rt().install(Context("test.late")),
      doctest::Contains("contexts are installed before the first call"),
      RegistrationError);
}

TEST_CASE(
    "D11: subscriptions of an event are served in qualified service name "
    "order") {
  auto probe = [](const std::string& name) {
    return Subscription<PaymentConfirmed>{
        .service = name,
        .handler = [](Invocation&, const PaymentConfirmed&,
                      const EventEnvelope&) {}};
  };
  // Installed out of order, and across two contexts.
  World w(3, {}, [&](Runtime& rt) {
    Context b("test.b");
    b.subscribe(probe("test.b.Zulu"));
    b.subscribe(probe("test.b.Alpha"));
    rt.install(std::move(b));
    Context a("test.a");
    a.subscribe(probe("test.a.Mike"));
    rt.install(std::move(a));
  });
  CHECK(
      w.rt().subscriptions_of(event_type<PaymentConfirmed>()) ==
      std::vector<std::string>{"commerce.notifications.OnDomesticPayment",
                               "commerce.notifications.OnInternationalPayment",
                               "commerce.notifications.OnPaymentAudit",
                               "test.a.Mike", "test.b.Alpha", "test.b.Zulu"});
}

TEST_CASE("D11: a deterministic run is reproducible from its seed") {
  auto run = [](std::uint64_t seed) {
    World w(seed);
    w.executor.injector().fail_delivery(kAudit, 3);
    w.gateway.fail_next = 1;
    for (int i = 0; i < 4; ++i) {
      w.order(fmt::format("o-{}", i), i % 2 ? "intl-u" : "u")
          .splitPayment(InternalCaller{}, 2);
    }
    w.executor.run_all();
    // Everything but the eventIds, which are random in every run (they
    // must differ across processes); each is named by its first appearance.
    std::string out;
    for (const auto& line : w.inbox("audit")) out += line + "\n";
    for (const auto& line : w.log.lines()) out += line.dump() + "\n";
    return canonical_ids(out);
  };
  const auto first = run(42);
  CHECK(first == run(42));
  CHECK(first != run(43));
}

// Every crash point of a scripted run, each followed by a real restart (a
// new Runtime over the same store): each committed PaymentConfirmed is
// handled with its effect (an emitted Ping) committed exactly once, and no
// agent message is lost.
TEST_CASE(
    "Crash and restart at every step: committed events and messages are "
    "re-driven, effects stay exactly once") {
  std::size_t max_steps = 0;
  {
    World probe(5);
    for (int i = 0; i < 3; ++i)
      probe.order(fmt::format("o-{}", i), "u")
          .splitPayment(InternalCaller{}, 2);
    probe.run_all();
    max_steps = probe.executor.steps();
  }
  REQUIRE(max_steps > 5);
  std::size_t reposted = 0;
  for (std::uint64_t n = 1; n <= max_steps; ++n) {
    std::multiset<std::string> handled;
    World w(5, {}, [&](Runtime& rt) {
      Context loop("test.loop");
      loop.owns<test_loop::Ping>();
      // The effect: one Ping per payment, committed with the delivery.
      loop.subscribe<PaymentConfirmed>(
          {.service = "test.loop.Effect",
           .handler = [](Invocation& tx, const PaymentConfirmed& e,
                         const EventEnvelope&) {
             tx.events().emit(test_loop::Ping{e.amount.cents});
           }});
      loop.subscribe<test_loop::Ping>(
          {.service = "test.loop.Sink",
           .handler = [&](Invocation&, const test_loop::Ping&,
                          const EventEnvelope& env) {
             handled.insert(env.causationId->str());
           }});
      rt.install(std::move(loop));
    });
    w.executor.injector().crash_at_step(n);
    for (int i = 0; i < 3; ++i)
      w.order(fmt::format("o-{}", i), "u").splitPayment(InternalCaller{}, 2);
    w.run_all();
    CHECK_MESSAGE(w.executor.crashes() == 1, "crash step ", n);
    CHECK_MESSAGE(w.restarts == 1, "crash step ", n);
    CHECK_MESSAGE(w.rt().store().context_log("commerce.order").head() == 6,
                  "crash step ", n);
    CHECK_MESSAGE(w.rt().store().context_log("test.loop").head() == 6,
                  "crash step ", n);
    std::set<std::string> distinct(handled.begin(), handled.end());
    CHECK_MESSAGE(distinct.size() == 6, "crash step ", n);
    CHECK_MESSAGE(handled.size() == 6, "crash step ", n);
    CHECK_MESSAGE(w.sub_metric("test.loop.Effect", "lag") == 0, "crash step ",
                  n);
    // Every payment's notification reached the buyer's inbox (an agent
    // message), none twice.
    CHECK_MESSAGE(w.inbox("u").size() == 6, "crash step ", n);
    reposted += w.rt().recovery().messages_reposted;
  }
  // Some crash points hit committed Inbox messages not yet run: the store
  // kept them and the restart posted them again.
  CHECK(reposted > 0);
}

}  // namespace herald::test
