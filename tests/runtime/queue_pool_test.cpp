// The runtime's own containers on the delivery path: the ring queue behind
// outboxes, logs and mailboxes, and the per-thread pool log entries come from.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "commerce/notifications.h"
#include "commerce/order.h"
#include "herald/ring_queue.hpp"
#include "test_world.hpp"

namespace herald::test {

TEST_CASE("RingQueue: FIFO order survives wrap-around, growth and push_front") {
  RingQueue<std::unique_ptr<int>> q;
  int next_in = 0;
  int next_out = 0;
  // Interleaved pushes and pops move the head around the buffer many times
  // while it grows from 16 slots upwards.
  for (int round = 0; round < 200; ++round) {
    for (int i = 0; i < round % 37 + 1; ++i)
      q.push_back(std::make_unique<int>(next_in++));
    for (int i = 0; i < round % 23 && !q.empty(); ++i) {
      CHECK(*q.front() == next_out++);
      q.pop_front();
    }
  }
  CHECK(q.size() == static_cast<std::size_t>(next_in - next_out));
  for (std::size_t i = 0; i < q.size(); ++i)
    CHECK(*q[i] == next_out + static_cast<int>(i));
  // What is pushed to the front comes out first, last pushed first.
  q.push_front(std::make_unique<int>(-1));
  q.push_front(std::make_unique<int>(-2));
  CHECK(*q.take_front() == -2);
  CHECK(*q.take_front() == -1);
  while (!q.empty()) CHECK(*q.take_front() == next_out++);
  CHECK(next_out == next_in);
}

TEST_CASE(
    "RingQueue: an element pushed from the queue itself survives the growth "
    "that push causes") {
  RingQueue<std::string> q;
  // Long enough to live on the heap: a copy from a moved-from slot is empty.
  for (int i = 0; i < 16; ++i)
    q.push_back(std::string(40, static_cast<char>('a' + i)));
  // Full (16 slots): this push grows the buffer, moving every element,
  // while its argument refers to the front one.
  q.push_back(q.front());
  q.emplace_back(q[1]);
  REQUIRE(q.size() == 18);
  CHECK(q[16] == std::string(40, 'a'));
  CHECK(q[17] == std::string(40, 'b'));
  CHECK(q[0] == std::string(40, 'a'));
}

TEST_CASE("RingQueue: clear and destruction release every element") {
  auto tracked = std::make_shared<int>(7);
  {
    RingQueue<std::shared_ptr<int>> q;
    for (int i = 0; i < 100; ++i) q.push_back(tracked);
    for (int i = 0; i < 40; ++i) q.pop_front();
    CHECK(tracked.use_count() == 61);
    q.clear();
    CHECK(tracked.use_count() == 1);
    for (int i = 0; i < 50; ++i) q.push_front(tracked);
    RingQueue<std::shared_ptr<int>> moved = std::move(q);
    // The moved-from queue is specified to be empty and reusable.
    CHECK(q.empty());  // NOLINT(bugprone-use-after-move)
    CHECK(moved.size() == 50);
    CHECK(tracked.use_count() == 51);
  }
  CHECK(tracked.use_count() == 1);
}

TEST_CASE(
    "Pooled log entries: recycled blocks carry fresh payloads and distinct "
    "UUID eventIds") {
  struct Seen {
    std::string order;
    std::int64_t cents;
    std::string event_id;
  };
  std::vector<Seen> seen;
  World w(3, {}, [&](Runtime& rt) {
    Context probes("test.probe");
    probes.subscribe<commerce::order::PaymentConfirmed>(
        {.service = "test.probe.Record",
         .handler = [&](Invocation&, const commerce::order::PaymentConfirmed& e,
                        const EventEnvelope& env) {
           seen.push_back({e.orderId.raw(), e.amount.cents, env.eventId.str()});
         }});
    rt.install(std::move(probes));
  });
  // Each round frees its entries before the next allocates, so later rounds
  // run on recycled blocks.
  constexpr int kRounds = 6;
  constexpr int kParts = 300;
  for (int r = 0; r < kRounds; ++r) {
    commerce::order::Order o = commerce::order::Order::at(
        w.rt(), commerce::order::OrderId::from_raw(fmt::format("pool-{}", r)));
    o.place(commerce::order::UserId::from_raw("u"),
            commerce::order::Money{1, "EUR"});
    o.splitPayment(commerce::order::InternalCaller{}, kParts);
    w.executor.run_until_idle();
  }
  REQUIRE(seen.size() == static_cast<std::size_t>(kRounds * kParts));
  std::set<std::string> ids;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    const int round = static_cast<int>(i) / kParts;
    CHECK(seen[i].order == fmt::format("pool-{}", round));
    CHECK(seen[i].cents == static_cast<std::int64_t>(i % kParts) + 1);
    const auto parsed = EventId::parse(seen[i].event_id);
    REQUIRE(parsed.has_value());
    CHECK(seen[i].event_id[14] == '7');  // version 7
    ids.insert(seen[i].event_id);
  }
  CHECK(ids.size() == seen.size());
}

}  // namespace herald::test
