// Group commit of a subscription's deliveries on sqlite: the deliveries of
// one actor run whose handlers staged nothing commit in one transaction;
// nothing of them is released before it commits; if it fails, nothing of
// the group is committed and every delivery of it runs again, in order
// (D6, D7); a crash during it loses nothing.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "test_world.hpp"

namespace herald::test {
namespace {

constexpr const char* kProbe = "test.probe.Parts";

// Fails (or crashes) the commit whose `target`-th record is applied, once
// armed: the group's transaction when its records are the next commits.
struct GroupFault {
  bool armed = false;
  bool crash = false;
  int applied = 0;
  int target = 0;
  int fired = 0;

  std::function<void(CommitPoint)> hook() {
    return [this](CommitPoint point) {
      if (!armed || point != CommitPoint::after_apply) return;
      if (++applied < target) return;
      armed = false;
      ++fired;
      if (crash) throw SimulatedCrash{};
      throw std::runtime_error("disk full (injected)");
    };
  }
  void arm(int records, bool as_crash) {
    armed = true;
    crash = as_crash;
    applied = 0;
    target = records;
  }
};

// What the probe saw: each part (cents) it ran for, and at each run what
// had been released of the deliveries before it.
struct Probe {
  std::vector<std::int64_t> parts;
  std::vector<std::uint64_t> delivered_before;
  std::vector<std::int64_t> acknowledged_before;
  std::string publisher;
  std::int64_t last_sequence = 0;  // the publisher's sequence of part 4
  // Called with the part before the handler returns.
  std::function<void(Invocation&, std::int64_t)> during;
};

std::function<void(Runtime&)> install_probe(Probe& probe) {
  return [&probe](Runtime& rt) {
    Context context("test.probe");
    context.subscribe<PaymentConfirmed>(
        {.service = kProbe,
         .handler = [&probe, &rt](Invocation& tx, const PaymentConfirmed& e,
                                  const EventEnvelope& env) {
           probe.publisher = std::string(env.publisherId);
           if (e.amount.cents == 4) probe.last_sequence = env.sequence;
           probe.parts.push_back(e.amount.cents);
           probe.delivered_before.push_back(
               rt.metrics_json()["subscriptions"][kProbe]["delivered"]
                   .get<std::uint64_t>());
           if (probe.during) probe.during(tx, e.amount.cents);
         }});
    rt.install(std::move(context));
  };
}

std::int64_t acknowledged(World& w, const std::string& publisher) {
  return w.backend->subscription_store(kProbe).acknowledged(publisher);
}

}  // namespace

TEST_CASE(
    "Sqlite group commit: nothing of a group is released before it commits, "
    "and a failed group commit runs every delivery of it again, in order") {
  Probe probe;
  GroupFault fault;
  World w(BackendKind::sqlite, 1, {}, install_probe(probe), fault.hook());
  World* world = &w;
  probe.during = [&](Invocation& /*tx*/, std::int64_t part) {
    probe.acknowledged_before.push_back(acknowledged(*world, probe.publisher));
    // The four deliveries of the run are the group; its transaction is the
    // next commit.
    if (part == 4 && fault.fired == 0) fault.arm(4, false);
  };
  Order o = w.order("o-1", "u-1");
  o.splitPayment(InternalCaller{}, 4);
  w.executor.run_until_idle();

  REQUIRE(fault.fired == 1);
  CHECK(probe.parts == std::vector<std::int64_t>{1, 2, 3, 4});
  // While the group ran, none of it was delivered or acknowledged.
  CHECK(probe.delivered_before == std::vector<std::uint64_t>{0, 0, 0, 0});
  CHECK(probe.acknowledged_before == std::vector<std::int64_t>{0, 0, 0, 0});
  // Its commit failed: still nothing, and one retry (the first delivery's;
  // the others wait behind it in their lane).
  CHECK(w.sub_metric(kProbe, "delivered") == 0);
  CHECK(acknowledged(w, probe.publisher) == 0);
  CHECK(w.sub_metric(kProbe, "retried") == 1);
  CHECK(w.log.lines("delivery.fault").size() == 1);

  w.run_all();
  CHECK(probe.parts == std::vector<std::int64_t>{1, 2, 3, 4, 1, 2, 3, 4});
  CHECK(w.sub_metric(kProbe, "delivered") == 4);
  CHECK(acknowledged(w, probe.publisher) == probe.last_sequence);

  // Committed once: a restart runs none of them again.
  w.restart();
  w.run_all();
  CHECK(probe.parts.size() == 8);
}

TEST_CASE(
    "Sqlite group commit: a delivery that stages an effect after a group "
    "whose commit fails is dropped and runs again behind the group, in "
    "order") {
  Probe probe;
  GroupFault fault;
  std::vector<bool> seen;
  World w(BackendKind::sqlite, 1, {}, install_probe(probe), fault.hook());
  probe.during = [&](Invocation& tx, std::int64_t part) {
    if (part != 3) return;
    // Staged: the group before it ({1, 2}) commits first, and fails.
    seen.push_back(tx.idempotency().seen("part-3"));
    tx.idempotency().remember("part-3", std::chrono::minutes(10));
    if (fault.fired == 0) fault.arm(2, false);
  };
  Order o = w.order("o-1", "u-1");
  o.splitPayment(InternalCaller{}, 4);
  w.executor.run_until_idle();
  REQUIRE(fault.fired == 1);
  // 4 waited in its lane without running.
  CHECK(probe.parts == std::vector<std::int64_t>{1, 2, 3});
  CHECK(w.sub_metric(kProbe, "delivered") == 0);

  w.run_all();
  CHECK(probe.parts == std::vector<std::int64_t>{1, 2, 3, 1, 2, 3, 4});
  // The first run of 3 was dropped with what it staged.
  CHECK(seen == std::vector<bool>{false, false});
  // The drop of 3 behind the failed group is a store fault, at error as
  // every delivery.store_fault line.
  const auto faults = w.log.lines("delivery.store_fault");
  REQUIRE_FALSE(faults.empty());
  int dropped = 0;
  for (const nlohmann::json& line : faults) {
    CHECK(line["level"] == "error");
    if (line["message"] == "the group commit before it failed") ++dropped;
  }
  CHECK(dropped == 1);
  CHECK(w.sub_metric(kProbe, "delivered") == 4);
  CHECK(acknowledged(w, probe.publisher) == probe.last_sequence);
}

TEST_CASE(
    "Sqlite group commit: a crash while the group commits loses nothing and "
    "keeps none of it") {
  Probe probe;
  GroupFault fault;
  World w(BackendKind::sqlite, 1, {}, install_probe(probe), fault.hook());
  probe.during = [&](Invocation& /*tx*/, std::int64_t part) {
    // The crash comes with the second record of the group applied: in one
    // transaction, the first is not kept either.
    if (part == 4 && fault.fired == 0) fault.arm(2, true);
  };
  Order o = w.order("o-1", "u-1");
  o.splitPayment(InternalCaller{}, 4);
  w.run_all();
  REQUIRE(fault.fired == 1);
  CHECK(w.restarts == 1);
  CHECK(probe.parts == std::vector<std::int64_t>{1, 2, 3, 4, 1, 2, 3, 4});
  CHECK(w.sub_metric(kProbe, "delivered") == 4);
}

}  // namespace herald::test
