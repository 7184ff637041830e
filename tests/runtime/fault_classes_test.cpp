// Fault classes: fault text that is not valid UTF-8 is made valid where it
// enters the runtime; a deterministic fault (a limit) is dead-lettered at
// once while a transient one is retried; a subscription configured to halt
// stops its publisher's lane at a dead letter until it is re-driven or
// skipped, across restarts.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "herald/errors.hpp"
#include "herald/sqlite_operator.hpp"
#include "test_world.hpp"

namespace test_faults {
// Echo re-emits itself one level deeper, until the cascade-depth limit.
struct Echo {
  std::int64_t n = 0;
};
inline void to_json(nlohmann::json& j, const Echo& e) { j = {{"n", e.n}}; }
inline void from_json(const nlohmann::json& j, Echo& e) {
  e.n = j.at("n").get<std::int64_t>();
}
// Steps of an ordered pipeline, published by the host.
struct Step {
  std::int64_t n = 0;
};
inline void to_json(nlohmann::json& j, const Step& s) { j = {{"n", s.n}}; }
inline void from_json(const nlohmann::json& j, Step& s) {
  s.n = j.at("n").get<std::int64_t>();
}
}  // namespace test_faults

template <>
struct herald::EventInfo<test_faults::Echo> {
  static constexpr std::string_view owner = "test.faults";
  static constexpr std::string_view name = "test.faults.Echo";
  static constexpr std::int64_t schema_version = 1;
  static constexpr std::size_t max_encoded_bytes = 32;  // {"n":<int64>}
};

template <>
struct herald::EventInfo<test_faults::Step> {
  static constexpr std::string_view owner = "test.faults";
  static constexpr std::string_view name = "test.faults.Step";
  static constexpr std::int64_t schema_version = 1;
  static constexpr std::size_t max_encoded_bytes = 32;
};

namespace herald::test {
namespace {

constexpr const char* kPipeline = "test.faults.Pipeline";

// Writes every line as JSON text, as a sink writing to a file or a socket
// does: nlohmann's dump throws on a String that is not valid UTF-8.
class DumpingSink final : public LogSink {
 public:
  void write(const nlohmann::json& line) override {
    text.push_back(line.dump());
  }
  std::vector<std::string> text;
};

// A host capability whose failure message is not valid UTF-8 ("caf" and a
// Latin-1 e-acute), for its first `failures` calls.
class Latin1Gateway final : public commerce::notifications::Gateway {
 public:
  void notify(const UserId& /*user*/, const std::string& text) override {
    ++calls;
    if (calls <= failures) throw std::runtime_error("caf\xe9");
    sent.push_back(text);
  }
  int failures = 0;
  int calls = 0;
  std::vector<std::string> sent;
};

// The pipeline: Step events by host publishers, delivered in order to one
// subscription whose handler fails (a transient host fault) on the steps
// in `failing`.
struct Pipeline {
  std::vector<std::int64_t> failing;
  std::vector<std::string> delivered;  // "<publisher>:<n>"

  std::function<void(Runtime&)> installer() {
    return [this](Runtime& rt) {
      Context c("test.faults");
      c.owns<test_faults::Step>();
      c.subscribe<test_faults::Step>(
          {.service = kPipeline,
           .handler = [this](Invocation&, const test_faults::Step& s,
                             const EventEnvelope& env) {
             if (std::find(failing.begin(), failing.end(), s.n) !=
                 failing.end())
               throw std::runtime_error("step " + std::to_string(s.n) +
                                        " is refused downstream");
             delivered.push_back(std::string(env.publisherId) + ":" +
                                 std::to_string(s.n));
           }});
      rt.install(std::move(c));
    };
  }
};

void publish_steps(Runtime& rt, const std::string& publisher,
                   std::initializer_list<std::int64_t> steps) {
  for (std::int64_t n : steps)
    rt.publish("test.faults", publisher, test_faults::Step{n});
}

EventId letter_of(Runtime& rt, std::int64_t step) {
  for (const DeadLetter& l : rt.dead_letters(kPipeline)) {
    if (rt.dead_letter_json(l)["payload"]["n"] == step)
      return l.event->envelope.eventId;
  }
  FAIL("no dead letter of step " << step);
  return EventId{};
}

}  // namespace

TEST_CASE(
    "A capability failing with text that is not valid UTF-8 is retried "
    "max_attempts times, then dead-lettered with a valid reason, its "
    "publisher goes on") {
  DeterministicExecutor executor(1);
  DumpingSink sink;
  Latin1Gateway gateway;
  gateway.failures = 1'000'000;
  Runtime rt(deterministic_config({{"retry.max_attempts", "5"}}), executor,
             make_memory_backend({false, std::chrono::hours(24), {}}), &sink);
  rt.install(commerce::order::context());
  rt.install(commerce::notifications::context(gateway));
  auto payments = commerce::order::Payments::in(rt);
  payments.confirmExternal(OrderId::from_raw("x-1"), UserId::from_raw("intl-1"),
                           100);
  executor.run_all();
  CHECK(gateway.calls == 5);
  const auto letters = rt.dead_letters(kInternational);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].attempts == 5);
  CHECK(invalid_utf8_at(letters[0].last_error) == std::string::npos);
  CHECK(letters[0].last_error == "caf\xEF\xBF\xBD");  // U+FFFD
  CHECK_NOTHROW((void)rt.dead_letter_json(letters[0]).dump());
  // The same publisher's next event is delivered: nothing waits behind the
  // letter.
  gateway.failures = 0;
  payments.confirmExternal(OrderId::from_raw("x-2"), UserId::from_raw("intl-1"),
                           200);
  executor.run_all();
  CHECK(gateway.sent.size() == 1);
  CHECK(gateway.calls == 6);
}

TEST_CASE(
    "Fault text keeps valid text, replaces invalid bytes and is bounded") {
  CHECK(fault_text("plain ascii") == "plain ascii");
  CHECK(fault_text("caf\xC3\xA9 \xF0\x9F\x98\x80") ==
        "caf\xC3\xA9 \xF0\x9F\x98\x80");
  // A lone continuation byte, an overlong '/', a surrogate, a truncated
  // sequence: each invalid byte becomes U+FFFD.
  CHECK(fault_text("a\x80z") == "a\xEF\xBF\xBDz");
  CHECK(fault_text("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(invalid_utf8_at("ok\xED\xA0\x80") == 2);
  CHECK(invalid_utf8_at("ok\xE2\x82") == 2);
  const std::string long_text(3 * kFaultTextMaxBytes, '\xe9');
  const std::string bounded = fault_text(long_text);
  CHECK(bounded.size() <= kFaultTextMaxBytes);
  CHECK(bounded.ends_with("..."));
  CHECK(invalid_utf8_at(bounded) == std::string::npos);
  HandlerFault fault("h", "caf\xe9");
  CHECK(fault.fault() == "caf\xEF\xBF\xBD");
}

TEST_CASE(
    "Fault classes: the cascade-depth limit is dead-lettered after one "
    "attempt, with its reason") {
  int attempts_at_limit = 0;
  World w(1, {{"retry.max_attempts", "5"}}, [&](Runtime& rt) {
    Context c("test.faults");
    c.owns<test_faults::Echo>();
    c.subscribe<test_faults::Echo>(
        {.service = "test.faults.Echoer",
         .handler = [&](Invocation& tx, const test_faults::Echo& e,
                        const EventEnvelope& env) {
           if (env.depth == 16) ++attempts_at_limit;
           tx.events().emit(test_faults::Echo{e.n + 1});
         }});
    rt.install(std::move(c));
  });
  w.rt().publish("test.faults", "host", test_faults::Echo{0});
  w.executor.run_all();
  CHECK(attempts_at_limit == 1);
  const auto letters = w.rt().dead_letters("test.faults.Echoer");
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].attempts == 1);
  CHECK(letters[0].last_error.find("past limits.cascade_depth = 16") !=
        std::string::npos);
  CHECK(w.sub_metric("test.faults.Echoer", "retried") == 0);
  CHECK(fault_class(FaultKind::limit) == FaultClass::deterministic);
  CHECK(fault_class(fault_kind(LimitError("x"))) == FaultClass::deterministic);
  CHECK(fault_class(fault_kind(ReentrantCallError("x"))) ==
        FaultClass::deterministic);
  CHECK(fault_class(fault_kind(std::runtime_error("x"))) ==
        FaultClass::transient);
}

TEST_CASE(
    "Fault classes: a transient fault is still retried max_attempts times") {
  Pipeline p;
  p.failing = {1};
  World w(1, {{"retry.max_attempts", "3"}}, p.installer());
  publish_steps(w.rt(), "p", {1});
  w.executor.run_all();
  const auto letters = w.rt().dead_letters(kPipeline);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].attempts == 3);
  CHECK(letters[0].policy == DeadLetterPolicy::skip);
}

TEST_CASE(
    "Dead-letter policy skip (the default): the lane goes on past a dead "
    "letter") {
  Pipeline p;
  p.failing = {2};
  World w(1, {{"retry.max_attempts", "2"}}, p.installer());
  publish_steps(w.rt(), "p", {1, 2, 3, 4});
  w.executor.run_all();
  CHECK(p.delivered == std::vector<std::string>{"p:1", "p:3", "p:4"});
  const auto letters = w.rt().dead_letters(kPipeline);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].policy == DeadLetterPolicy::skip);
  CHECK(w.rt().dead_letter_json(letters[0])["policy"] == "skip");
  // No lane waits on it: skipping does nothing.
  CHECK_FALSE(w.rt().skip_dead_letter(kPipeline, letter_of(w.rt(), 2)));
}

TEST_CASE(
    "Dead-letter policy halt: the publisher's lane stops at the letter, a "
    "re-drive resumes it in order") {
  Pipeline p;
  p.failing = {2};
  World w(1,
          {{"retry.max_attempts", "2"},
           {"subscriptions.halt_on_dead_letter", kPipeline}},
          p.installer());
  publish_steps(w.rt(), "p", {1, 2, 3, 4});
  publish_steps(w.rt(), "q", {10});
  w.executor.run_all();
  // Another publisher's lane is not held.
  CHECK(p.delivered == std::vector<std::string>{"p:1", "q:10"});
  const auto letters = w.rt().dead_letters(kPipeline);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].policy == DeadLetterPolicy::halt);
  // Later events of the halted publisher wait too.
  publish_steps(w.rt(), "p", {5});
  w.executor.run_all();
  CHECK(p.delivered.size() == 2);
  p.failing.clear();
  REQUIRE(w.rt().redrive(kPipeline, letter_of(w.rt(), 2)));
  w.executor.run_all();
  CHECK(p.delivered ==
        std::vector<std::string>{"p:1", "q:10", "p:2", "p:3", "p:4", "p:5"});
  CHECK(w.rt().dead_letters(kPipeline).empty());
}

TEST_CASE(
    "Dead-letter policy halt: a re-drive that faults again keeps the lane "
    "halted, a skip releases it and keeps the letter") {
  Pipeline p;
  p.failing = {2};
  World w(1,
          {{"retry.max_attempts", "2"},
           {"subscriptions.halt_on_dead_letter", kPipeline}},
          p.installer());
  publish_steps(w.rt(), "p", {1, 2, 3});
  w.executor.run_all();
  REQUIRE(w.rt().redrive(kPipeline, letter_of(w.rt(), 2)));
  w.executor.run_all();
  CHECK(p.delivered == std::vector<std::string>{"p:1"});
  REQUIRE(w.rt().skip_dead_letter(kPipeline, letter_of(w.rt(), 2)));
  w.executor.run_all();
  CHECK(p.delivered == std::vector<std::string>{"p:1", "p:3"});
  const auto letters = w.rt().dead_letters(kPipeline);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].policy == DeadLetterPolicy::skip);
  CHECK_FALSE(w.rt().skip_dead_letter(kPipeline, letter_of(w.rt(), 2)));
}

TEST_CASE(
    "Dead-letter policy halt survives restarts on sqlite until the letter "
    "is re-driven by the operator") {
  Pipeline p;
  p.failing = {2};
  World w(BackendKind::sqlite, 1,
          {{"retry.max_attempts", "2"},
           {"subscriptions.halt_on_dead_letter", kPipeline}},
          p.installer());
  publish_steps(w.rt(), "p", {1, 2, 3, 4});
  w.executor.run_all();
  CHECK(p.delivered == std::vector<std::string>{"p:1"});
  w.restart();
  w.executor.run_all();
  w.restart();
  w.executor.run_all();
  CHECK(p.delivered == std::vector<std::string>{"p:1"});
  const auto letters = w.rt().dead_letters(kPipeline);
  REQUIRE(letters.size() == 1);
  CHECK(letters[0].policy == DeadLetterPolicy::halt);
  // Re-driven as `herald dead-letters redrive` does it, on the stopped
  // program: the next process's recovery re-drives it.
  const std::string id = letter_of(w.rt(), 2).str();
  w.stop();
  {
    SqliteOperator op(w.database_path());
    CHECK(op.redrive(id, std::string(kPipeline)).marked == 1);
  }
  p.failing.clear();
  w.restart();
  w.executor.run_all();
  CHECK(p.delivered == std::vector<std::string>{"p:1", "p:2", "p:3", "p:4"});
  CHECK(w.rt().dead_letters(kPipeline).empty());
  w.restart();
  w.executor.run_all();
  CHECK(p.delivered.size() == 4);
}

TEST_CASE(
    "Dead-letter policy halt on sqlite: a skip releases the lane and the "
    "next process does not halt it again") {
  Pipeline p;
  p.failing = {2};
  World w(BackendKind::sqlite, 1,
          {{"retry.max_attempts", "2"},
           {"subscriptions.halt_on_dead_letter", kPipeline}},
          p.installer());
  publish_steps(w.rt(), "p", {1, 2});
  w.executor.run_all();
  w.restart();
  REQUIRE(w.rt().skip_dead_letter(kPipeline, letter_of(w.rt(), 2)));
  publish_steps(w.rt(), "p", {3});
  w.executor.run_all();
  CHECK(p.delivered == std::vector<std::string>{"p:1", "p:3"});
  w.restart();
  publish_steps(w.rt(), "p", {4});
  w.executor.run_all();
  CHECK(p.delivered == std::vector<std::string>{"p:1", "p:3", "p:4"});
  CHECK(w.rt().dead_letters(kPipeline).size() == 1);
}

TEST_CASE(
    "subscriptions.halt_on_dead_letter: read from the environment and a "
    "file, a name that is no installed subscription is refused") {
  ConfigSources s;
  s.environment = std::map<std::string, std::string>{
      {"HERALD_SUBSCRIPTIONS_HALT_ON_DEAD_LETTER", "a.B, c.D"}};
  const RuntimeConfig c = load_config(s);
  CHECK(dead_letter_policy(c, "a.B") == DeadLetterPolicy::halt);
  CHECK(dead_letter_policy(c, "c.D") == DeadLetterPolicy::halt);
  CHECK(dead_letter_policy(c, "e.F") == DeadLetterPolicy::skip);
  s.environment->begin()->second = "a.B,,c.D";
  CHECK_THROWS_WITH_AS(load_config(s), doctest::Contains("no empty item"),
                       ConfigError);
  Pipeline p;
  World w(1, {{"subscriptions.halt_on_dead_letter", "test.faults.Pipelin"}},
          p.installer());
  CHECK_THROWS_WITH_AS(w.rt().recover(),
                       doctest::Contains("did you mean 'test.faults.Pipeline'"),
                       ConfigError);
}

}  // namespace herald::test
