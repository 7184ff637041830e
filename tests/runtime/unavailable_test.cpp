// A node that cannot commit for a while (a nats node whose lease of a
// context lapsed): its store refuses commits with herald::Unavailable. A
// delivery or agent message that meets it waits, holding its lane, and runs
// again after a growing backoff for as long as that lasts, without the
// waits counting as attempts; it is never dead-lettered for it. Once the
// node commits again, everything runs once, in order.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "chat_fixture.hpp"
#include "forwarding_backend.hpp"
#include "herald/errors.hpp"
#include "herald/time.hpp"
#include "test_world.hpp"

namespace test_unavailable {
struct Step {
  std::int64_t n = 0;
};
inline void to_json(nlohmann::json& j, const Step& s) { j = {{"n", s.n}}; }
inline void from_json(const nlohmann::json& j, Step& s) {
  s.n = j.at("n").get<std::int64_t>();
}
}  // namespace test_unavailable

template <>
struct herald::EventInfo<test_unavailable::Step> {
  static constexpr std::string_view owner = "test.unavailable";
  static constexpr std::string_view name = "test.unavailable.Step";
  static constexpr std::int64_t schema_version = 1;
  static constexpr std::size_t max_encoded_bytes = 32;
};

namespace herald::test {
namespace {

using namespace std::chrono_literals;

constexpr const char* kStepper = "test.unavailable.Stepper";

// The memory backend, refusing every commit with herald::Unavailable while
// `unavailable` is set, as a nats node does while its lease has lapsed.
class LapsingBackend final : public ForwardingBackend {
 public:
  LapsingBackend() : ForwardingBackend(make_memory_backend({false})) {}
  void commit(CommitRecord& record) override {
    if (unavailable) {
      ++refused;
      throw Unavailable(
          "the lease of context 'test.unavailable' held by node 'n1' lapsed "
          "(injected)");
    }
    ForwardingBackend::commit(record);
  }
  bool unavailable = false;
  int refused = 0;
};

struct StepWorld {
  StepWorld()
      : executor(1),
        runtime(deterministic_config({{"retry.max_attempts", "3"}}), executor,
                make_backend(), &log) {
    Context c("test.unavailable");
    c.owns<test_unavailable::Step>();
    c.subscribe<test_unavailable::Step>(
        {.service = kStepper,
         .handler = [this](Invocation&, const test_unavailable::Step& s,
                           const EventEnvelope&) { runs.push_back(s.n); }});
    runtime.install(std::move(c));
  }
  std::unique_ptr<Backend> make_backend() {
    auto owned = std::make_unique<LapsingBackend>();
    backend = owned.get();
    return owned;
  }
  DeterministicExecutor executor;
  MemoryLogSink log;
  LapsingBackend* backend = nullptr;
  Runtime runtime;
  std::vector<std::int64_t> runs;  // the handler's runs, committed or not
};

}  // namespace

TEST_CASE("Unavailable: its own fault kind and class, a CommitError still") {
  const Unavailable lapsed("the lease lapsed");
  CHECK(fault_kind(lapsed) == FaultKind::unavailable);
  CHECK(fault_class(FaultKind::unavailable) == FaultClass::unavailable);
  CHECK(fault_kind_name(FaultKind::unavailable) == "unavailable");
  CHECK(fault_kind(CommitError("disk full")) == FaultKind::commit);
  CHECK(dynamic_cast<const CommitError*>(&lapsed) != nullptr);
}

TEST_CASE(
    "Unavailable: a delivery waits out a node that cannot commit for more "
    "runs than retry.max_attempts, spends no attempt, is not dead-lettered, "
    "and its lane runs once, in order, after") {
  StepWorld w;
  for (std::int64_t n = 1; n <= 3; ++n)
    w.runtime.publish("test.unavailable", "host", test_unavailable::Step{n});
  w.backend->unavailable = true;
  w.executor.advance(20s);
  // Only the lane's first event ran, again and again; the others waited
  // behind it (D7).
  REQUIRE(w.runs.size() > 3);
  for (std::int64_t n : w.runs) CHECK(n == 1);
  const auto waits = w.log.lines("delivery.unavailable");
  REQUIRE(waits.size() == w.runs.size());
  for (std::size_t i = 0; i < waits.size(); ++i) {
    CHECK(waits[i]["attempt"] == 1);  // the same attempt each time
    CHECK(waits[i]["waits"] == i + 1);
    CHECK(waits[i]["eventType"] == "test.unavailable.Step");
  }
  // The waits grow (retry.base 100ms doubling, less jitter) up to a second,
  // so that the lane goes on within a second of the node committing again:
  // fewer than the two hundred of a wait at the base every time, and none
  // longer than a second.
  CHECK(waits.size() < 200);
  for (const nlohmann::json& wait : waits)
    CHECK(parse_duration(wait["delay"].get<std::string>()) <= 1s);
  for (const nlohmann::json& fault : w.log.lines("delivery.fault"))
    CHECK(fault["faultKind"] == "unavailable");
  CHECK(w.runtime.dead_letters(kStepper).empty());
  CHECK(w.log.lines("delivery.dead_letter").empty());
  CHECK(w.log.lines("delivery.retry").empty());

  // The node commits again: each event runs once more, in order, and
  // commits.
  w.backend->unavailable = false;
  const std::size_t before = w.runs.size();
  w.executor.run_all(1h);
  CHECK(std::vector<std::int64_t>(w.runs.begin() + static_cast<long>(before),
                                  w.runs.end()) ==
        std::vector<std::int64_t>{1, 2, 3});
  CHECK(w.runtime.dead_letters(kStepper).empty());
  CHECK(w.runtime.metrics_json()["subscriptions"][kStepper]["delivered"] == 3);
  CHECK(w.executor.pending_timers() == 0);
}

TEST_CASE(
    "Unavailable: a host call that cannot commit throws herald::Unavailable "
    "and commits nothing") {
  StepWorld w;
  w.backend->unavailable = true;
  CHECK_THROWS_AS(
      w.runtime.publish("test.unavailable", "host", test_unavailable::Step{1}),
      Unavailable);
  CHECK(w.backend->refused == 1);
  w.backend->unavailable = false;
  w.runtime.publish("test.unavailable", "host", test_unavailable::Step{1});
  w.executor.run_all(1h);
  CHECK(w.runs == std::vector<std::int64_t>{1});
}

TEST_CASE(
    "Unavailable: an agent message waits out a node that cannot commit, its "
    "attempts untouched, and runs once after") {
  DeterministicExecutor executor(1);
  MemoryLogSink log;
  auto owned = std::make_unique<LapsingBackend>();
  LapsingBackend& backend = *owned;
  Runtime rt(deterministic_config({{"retry.max_attempts", "2"}}), executor,
             std::move(owned), &log);
  rt.install(test_chat::context());
  test_chat::Lobby::in(rt).send("r-1", "say", {{"text", "hello"}});
  backend.unavailable = true;
  executor.advance(10s);
  const auto waits = log.lines("message.unavailable");
  REQUIRE(waits.size() > 2);
  for (std::size_t i = 0; i < waits.size(); ++i) {
    CHECK(waits[i]["waits"] == i + 1);
    CHECK(waits[i]["faultKind"] == "unavailable");
  }
  CHECK(rt.dead_messages().empty());
  CHECK(log.lines("message.retry").empty());
  backend.unavailable = false;
  executor.run_all(1h);
  CHECK(test_chat::Room::at(rt, "r-1").state().lines ==
        std::vector<std::string>{"r-1: hello"});
  CHECK(rt.dead_messages().empty());
  CHECK(executor.pending_timers() == 0);
}

TEST_CASE(
    "Unavailable: an agent's later message waits behind its message that "
    "waits out a node that cannot commit: the agent's messages run in the "
    "order they came") {
  DeterministicExecutor executor(1);
  MemoryLogSink log;
  auto owned = std::make_unique<LapsingBackend>();
  LapsingBackend& backend = *owned;
  Runtime rt(deterministic_config({{"retry.max_attempts", "2"}}), executor,
             std::move(owned), &log);
  rt.install(test_chat::context());
  test_chat::Lobby::in(rt).send("r-1", "say", {{"text", "hello"}});
  backend.unavailable = true;
  // Long enough for its waits to have grown to a second.
  executor.advance(5s);
  REQUIRE(log.lines("message.unavailable").size() > 2);
  backend.unavailable = false;
  // Committed and posted while the first still waits for its timer.
  test_chat::Lobby::in(rt).send("r-1", "say", {{"text", "second"}});
  executor.run_all(1h);
  CHECK(test_chat::Room::at(rt, "r-1").state().lines ==
        std::vector<std::string>{"r-1: hello", "r-1: second"});
  CHECK(rt.dead_messages().empty());
  CHECK(executor.pending_timers() == 0);
}

}  // namespace herald::test
