// The threaded executor: D7 and isolation under concurrent host calls. These
// tests are the ones to run under ThreadSanitizer.
#include <atomic>
#include <set>
#include <thread>

#include <doctest/doctest.h>

#include "chat_fixture.hpp"
#include "commerce/notifications.h"
#include "commerce/order.h"
#include "herald/threaded_executor.hpp"

namespace herald::test {
namespace {

using commerce::order::AuthId;
using commerce::order::InternalCaller;
using commerce::order::Money;
using commerce::order::Order;
using commerce::order::OrderId;
using commerce::order::PaymentConfirmed;
using commerce::order::UserId;

class NullGateway final : public commerce::notifications::Gateway {
 public:
  void notify(const UserId&, const std::string&) override {}
};

RuntimeConfig threaded_config() {
  ConfigSources s;
  s.environment = std::map<std::string, std::string>{};
  s.settings = {{"executor.kind", "threaded"},
                {"retry.base", "1ms"},
                {"retry.cap", "4ms"},
                {"retry.max_attempts", "3"},
                // The tests check what shutdown drains, not its timeout: a
                // loaded machine (sanitizers, tests in parallel) may take
                // longer than the default 5 s.
                {"executor.shutdown_timeout", "120s"},
                {"log.level", "off"}};
  return load_config(s);
}

// Records, per publisher, the sequences a subscription saw. With fail_every
// set, the first attempt of every fail_every-th sequence fails, so retries
// interleave with new arrivals (and no event runs out of attempts).
struct SequenceProbe {
  std::map<std::string, std::vector<std::int64_t>>
      seen;  // touched only by the subscription's actor
  std::set<std::pair<std::string, std::int64_t>> failed;
  int fail_every = 0;
};

Subscription<PaymentConfirmed> probe_subscription(std::string name,
                                                  SequenceProbe& probe) {
  return {.service = std::move(name),
          .handler = [&probe](Invocation&, const PaymentConfirmed&,
                              const EventEnvelope& env) {
            if (probe.fail_every > 0 && env.sequence % probe.fail_every == 0 &&
                probe.failed.emplace(std::string(env.publisherId), env.sequence)
                    .second) {
              throw std::runtime_error("flaky");
            }
            probe.seen[std::string(env.publisherId)].push_back(env.sequence);
          }};
}

bool gap_free(const std::vector<std::int64_t>& seqs) {
  for (std::size_t i = 0; i < seqs.size(); ++i) {
    if (seqs[i] != static_cast<std::int64_t>(i) + 1) return false;
  }
  return true;
}

}  // namespace

TEST_CASE(
    "Threaded D7: per-publisher FIFO under concurrent host calls to one agent, "
    "with retries") {
  ThreadedExecutor executor(3);
  NullGateway gateway;
  SequenceProbe flaky;
  flaky.fail_every = 4;
  SequenceProbe steady;
  {
    Runtime rt(threaded_config(), executor);
    rt.install(commerce::order::context());
    rt.install(commerce::notifications::context(gateway));
    Context probes("test.probe");
    probes.subscribe(probe_subscription("test.probe.Flaky", flaky));
    probes.subscribe(probe_subscription("test.probe.Steady", steady));
    rt.install(std::move(probes));
    Order::at(rt, OrderId::from_raw("shared"))
        .place(UserId::from_raw("u-1"), Money{1, "EUR"});

    constexpr int kThreads = 4;
    constexpr int kCalls = 60;
    std::vector<std::thread> hosts;
    hosts.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) {
      hosts.emplace_back([&rt, t] {
        for (int i = 0; i < kCalls; ++i) {
          Order::at(rt, OrderId::from_raw("shared"))
              .markPaid(InternalCaller{}, AuthId::from_raw("a"));
          Order::at(rt, OrderId::from_raw(fmt::format("own-{}", t)))
              .place(UserId::from_raw("u-2"), Money{1, "EUR"});
          Order::at(rt, OrderId::from_raw(fmt::format("own-{}", t)))
              .markPaid(InternalCaller{}, AuthId::from_raw("b"));
        }
      });
    }
    for (auto& h : hosts) h.join();
    rt.shutdown();
    const auto m = rt.metrics_json();
    CHECK(m["eventTypes"]["commerce.order.PaymentConfirmed"]["released"] ==
          kThreads * kCalls * 2);
    CHECK(m["subscriptions"]["test.probe.Flaky"]["lag"] == 0);
    CHECK(m["subscriptions"]["test.probe.Flaky"]["retried"].get<int>() > 0);
  }
  for (const SequenceProbe* probe : {&flaky, &steady}) {
    REQUIRE(probe->seen.size() ==
            5);  // the shared order and one per host thread
    CHECK(probe->seen.at("commerce.order.Order/shared").size() == 240);
    for (const auto& entry : probe->seen)
      CHECK_MESSAGE(gap_free(entry.second), entry.first);
  }
}

TEST_CASE(
    "Threaded D4: a failing subscriber does not block the publisher or the "
    "others") {
  ThreadedExecutor executor(3);
  NullGateway gateway;
  SequenceProbe steady;
  std::atomic<int> broken_calls{0};
  {
    Runtime rt(threaded_config(), executor);
    rt.install(commerce::order::context());
    rt.install(commerce::notifications::context(gateway));
    Context probes("test.probe");
    probes.subscribe(probe_subscription("test.probe.Steady", steady));
    probes.subscribe<PaymentConfirmed>(
        {.service = "test.probe.Broken",
         .handler = [&](Invocation&, const PaymentConfirmed&,
                        const EventEnvelope&) {
           broken_calls.fetch_add(1);
           throw std::runtime_error("always broken");
         }});
    rt.install(std::move(probes));
    std::vector<std::thread> hosts;
    hosts.reserve(2);
    for (int t = 0; t < 2; ++t) {
      hosts.emplace_back([&rt, t] {
        for (int i = 0; i < 50; ++i) {
          Order o =
              Order::at(rt, OrderId::from_raw(fmt::format("o-{}-{}", t, i)));
          o.place(UserId::from_raw("u"), Money{1, "EUR"});
          o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
        }
      });
    }
    for (auto& h : hosts) h.join();
    rt.shutdown();
    CHECK(rt.dead_letters("test.probe.Broken").size() == 100);
    CHECK(
        rt.metrics_json()["subscriptions"]["test.probe.Steady"]["delivered"] ==
        100);
    // A state read, which shutdown allows (a host call it refuses).
    CHECK(commerce::notifications::Inbox::at(rt, "u").state().messages.size() ==
          100);
    CHECK_THROWS_AS(commerce::notifications::Inbox::at(rt, "u").messages(),
                    ShutdownError);
  }
  CHECK(broken_calls.load() == 300);  // 3 attempts each
  std::size_t delivered = 0;
  for (const auto& [publisher, seqs] : steady.seen) delivered += seqs.size();
  CHECK(delivered == 100);
}

TEST_CASE("Threaded: shutdown drains in-flight work") {
  ThreadedExecutor executor(2);
  NullGateway gateway;
  std::atomic<int> delivered{0};
  Runtime rt(threaded_config(), executor);
  rt.install(commerce::order::context());
  rt.install(commerce::notifications::context(gateway));
  Context probes("test.probe");
  probes.subscribe<PaymentConfirmed>(
      {.service = "test.probe.Count",
       .handler = [&](Invocation&, const PaymentConfirmed&,
                      const EventEnvelope&) { delivered.fetch_add(1); }});
  rt.install(std::move(probes));
  Order o = Order::at(rt, OrderId::from_raw("o-1"));
  o.place(UserId::from_raw("u"), Money{1, "EUR"});
  o.splitPayment(InternalCaller{}, 1000);
  rt.shutdown();
  CHECK(delivered.load() == 1000);
  CHECK(
      commerce::notifications::Inbox::at(rt, "audit").state().messages.size() ==
      1000);
}

TEST_CASE(
    "Threaded: log entries freed on workers and reused by hosts keep payloads "
    "and eventIds intact") {
  // Entries are allocated by the emitting host threads and released by
  // whichever worker finishes with them last; each thread keeps its own free
  // blocks. Several hosts emit bursts while two workers deliver.
  ThreadedExecutor executor(2);
  std::vector<std::pair<std::string, std::string>>
      seen;  // touched only by the subscription's actor
  constexpr int kHosts = 3;
  constexpr int kRounds = 8;
  constexpr int kParts = 200;
  {
    Runtime rt(threaded_config(), executor);
    rt.install(commerce::order::context());
    Context probes("test.probe");
    probes.subscribe<PaymentConfirmed>(
        {.service = "test.probe.Record",
         .handler = [&](Invocation&, const PaymentConfirmed& e,
                        const EventEnvelope& env) {
           seen.emplace_back(
               fmt::format("{}#{}", e.orderId.raw(), e.amount.cents),
               env.eventId.str());
         }});
    rt.install(std::move(probes));
    std::vector<std::thread> hosts;
    hosts.reserve(kHosts);
    for (int t = 0; t < kHosts; ++t) {
      hosts.emplace_back([&rt, t] {
        for (int r = 0; r < kRounds; ++r) {
          Order o =
              Order::at(rt, OrderId::from_raw(fmt::format("p-{}-{}", t, r)));
          o.place(UserId::from_raw("u"), Money{1, "EUR"});
          o.splitPayment(InternalCaller{}, kParts);
        }
      });
    }
    for (auto& h : hosts) h.join();
    rt.shutdown();
  }
  REQUIRE(seen.size() == static_cast<std::size_t>(kHosts * kRounds * kParts));
  std::set<std::string> payloads;
  std::set<std::string> ids;
  for (const auto& [payload, id] : seen) {
    payloads.insert(payload);
    REQUIRE(EventId::parse(id).has_value());
    ids.insert(id);
  }
  CHECK(ids.size() == seen.size());
  CHECK(payloads.size() == seen.size());
  for (int t = 0; t < kHosts; ++t) {
    for (int r = 0; r < kRounds; ++r) {
      CHECK(payloads.contains(fmt::format("p-{}-{}#1", t, r)));
      CHECK(payloads.contains(fmt::format("p-{}-{}#{}", t, r, kParts)));
    }
  }
}

TEST_CASE(
    "Threaded: a host call from inside a handler is refused instead of "
    "deadlocking") {
  // A message handler calling its own agent, which it holds, would wait for
  // itself forever; a subscription calling an agent or publishing is refused
  // in the same way.
  ThreadedExecutor executor(2);
  std::vector<std::string>
      from_subscription;  // touched only by the subscription's actor
  constexpr int kHosts = 2;
  constexpr int kSends = 40;
  const std::vector<std::string> calls{"call", "state", "service", "publish"};
  {
    Runtime rt(threaded_config(), executor);
    rt.install(test_chat::context());
    Context probes("test.probe");
    probes.subscribe<test_chat::Said>(
        {.service = "test.probe.Echo",
         .handler = [&](Invocation& tx, const test_chat::Said& e,
                        const EventEnvelope&) {
           from_subscription.push_back(
               test_chat::host_call_from_handler(tx, e.text, "echo"));
         }});
    rt.install(std::move(probes));
    std::vector<std::thread> hosts;
    hosts.reserve(kHosts);
    for (int t = 0; t < kHosts; ++t) {
      hosts.emplace_back([&rt, &calls, t] {
        for (int i = 0; i < kSends; ++i) {
          const std::string& call =
              calls[static_cast<std::size_t>(i) % calls.size()];
          test_chat::Lobby::in(rt).send(fmt::format("r-{}", i % 4), "reenter",
                                        {{"call", call}});
          rt.publish("test.chat", fmt::format("host-{}", t),
                     test_chat::Said{call});
        }
      });
    }
    for (auto& h : hosts) h.join();
    rt.shutdown();
    std::size_t lines = 0;
    for (int r = 0; r < 4; ++r) {
      for (const std::string& line :
           test_chat::Room::at(rt, fmt::format("r-{}", r)).state().lines) {
        ++lines;
        CHECK_MESSAGE(line.find(" is a host call, made from inside handler "
                                "test.chat.Room.reenter;") != std::string::npos,
                      line);
      }
    }
    CHECK(lines == static_cast<std::size_t>(kHosts * kSends));
    CHECK(rt.metrics_json()["eventTypes"]["test.chat.Said"]["released"] ==
          kHosts * kSends);
  }
  REQUIRE(from_subscription.size() ==
          static_cast<std::size_t>(kHosts * kSends));
  for (const std::string& line : from_subscription) {
    CHECK_MESSAGE(
        line.find(
            " is a host call, made from inside handler test.probe.Echo;") !=
            std::string::npos,
        line);
  }
}

}  // namespace herald::test
