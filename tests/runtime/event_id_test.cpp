// EventIds minted by the runtime: UUID version 7 over a CSPRNG,
// unique whatever the executor's seed, across threads and processes.
#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include <doctest/doctest.h>

#include "chat_fixture.hpp"
#include "herald/config.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/errors.hpp"
#include "herald/id_source.hpp"
#include <sys/wait.h>
#include <unistd.h>

namespace herald::test {
namespace {

std::uint64_t unix_ms_now() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count());
}

bool disjoint(std::vector<EventId> a, std::vector<EventId> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<EventId> both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(),
                        std::back_inserter(both));
  return both.empty();
}

RuntimeConfig config_of(std::map<std::string, std::string> settings) {
  ConfigSources s;
  s.environment = std::map<std::string, std::string>{};
  s.settings = std::move(settings);
  return load_config(s);
}

}  // namespace

TEST_CASE("EventId: the version-7 layout of RFC 9562's example") {
  // RFC 9562 appendix A.6: unix_ts_ms 0x017F22E279B0, rand_a 0xCC3,
  // rand_b 0x18C4DC0C0C07398F.
  const EventId id = event_id_v7(0x017F22E279B0, 0xCC3, 0x18C4DC0C0C07398Full);
  CHECK(id.str() == "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
  CHECK(event_id_unix_ms(id) == 0x017F22E279B0);
  // Bits outside their fields never leak into version or variant.
  const EventId all = event_id_v7(~0ull, 0xFFFF, ~0ull);
  CHECK(all.str() == "ffffffff-ffff-7fff-bfff-ffffffffffff");
}

TEST_CASE("EventId: a minted id has version 7, variant 10 and the time now") {
  const std::uint64_t before = unix_ms_now();
  const EventId id = new_event_id();
  const std::uint64_t after = unix_ms_now();
  CHECK(((id.hi() >> 12) & 0xF) == 7);
  CHECK((id.lo() >> 62) == 2);
  // Minted from the coarse clock, which lags the precise one by a few
  // kernel ticks (milliseconds; more on a loaded machine).
  CHECK(event_id_unix_ms(id) + 1000 >= before);
  CHECK(event_id_unix_ms(id) <= after);
  const std::string text = id.str();
  CHECK(text[14] == '7');
  CHECK(std::string("89ab").find(text[19]) != std::string::npos);
  CHECK(EventId::parse(text) == id);
}

TEST_CASE("EventId: a million minted ids are distinct") {
  std::vector<EventId> ids(1'000'000);
  for (EventId& id : ids) id = new_event_id();
  // Not merely distinct: the random fields vary from one draw to the next (a
  // fixed random part under a moving clock would be distinct too).
  std::size_t same_rand_a = 0;
  std::size_t same_rand_b = 0;
  for (std::size_t i = 1; i < ids.size(); ++i) {
    same_rand_a += (ids[i].hi() & 0xFFF) == (ids[i - 1].hi() & 0xFFF);
    same_rand_b += ids[i].lo() == ids[i - 1].lo();
  }
  CHECK(same_rand_a < ids.size() / 1000);  // about 1 in 4096 by chance
  CHECK(same_rand_b == 0);
  std::sort(ids.begin(), ids.end());
  CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
}

TEST_CASE("EventId: one minter's ids share its millisecond, not its bits") {
  const std::uint64_t before = unix_ms_now();
  EventIdMinter minter;
  std::vector<EventId> ids(10'000);
  for (EventId& id : ids) id = minter.next();
  // A minter (one commit's events) read the clock once: all its ids carry
  // that millisecond, also when minting them took longer than one. Each
  // draws its own random bits.
  std::size_t not_v7 = 0;
  std::size_t other_millisecond = 0;
  std::size_t same_rand_b = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const EventId& id = ids[i];
    not_v7 += ((id.hi() >> 12) & 0xF) != 7 || (id.lo() >> 62) != 2;
    other_millisecond += event_id_unix_ms(id) != event_id_unix_ms(ids[0]);
    if (i > 0) same_rand_b += id.lo() == ids[i - 1].lo();
  }
  CHECK(not_v7 == 0);
  CHECK(other_millisecond == 0);
  CHECK(same_rand_b == 0);
  CHECK(event_id_unix_ms(ids[0]) + 1000 >= before);
  CHECK(event_id_unix_ms(ids[0]) <= unix_ms_now());
  std::sort(ids.begin(), ids.end());
  CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
}

TEST_CASE(
    "EventId: an invocation's emissions share its first one's clock read") {
  // A handler emits, waits longer than the coarse clock's tick, and emits
  // again: both ids carry the first one's millisecond (one clock read per
  // invocation), and each its own random bits.
  DeterministicExecutor executor(1);
  Runtime rt(
      config_of({{"executor.kind", "deterministic"}, {"log.level", "off"}}),
      executor);
  rt.install(test_chat::context());
  std::vector<EventId> minted;
  rt.tap(event_type<test_chat::Said>(), [&](const LogEntry& entry) {
    minted.push_back(entry.envelope.eventId);
  });
  test_chat::Room::at(rt, "r").call(
      "say twice", [](Invocation& tx, test_chat::RoomState&) {
        tx.events().emit(test_chat::Said{"first"});
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        tx.events().emit(test_chat::Said{"second"});
      });
  executor.run_until_idle();
  rt.shutdown();
  REQUIRE(minted.size() == 2);
  CHECK(event_id_unix_ms(minted[0]) == event_id_unix_ms(minted[1]));
  CHECK(minted[0].lo() != minted[1].lo());
}

TEST_CASE(
    "EventId: two executors with the same seed share a schedule, not ids") {
  DeterministicExecutor a(42);
  DeterministicExecutor b(42);
  std::vector<EventId> from_a;
  std::vector<EventId> from_b;
  for (int i = 0; i < 1000; ++i) {
    // Minting draws nothing from an executor: interleaving ids with the
    // executor's own draws leaves its stream, hence its schedule and jitter,
    // as the seed says, whatever order a call site evaluates them in.
    from_a.push_back(new_event_id());
    REQUIRE(a.random() == b.random());
    from_b.push_back(new_event_id());
  }
  CHECK(disjoint(from_a, from_b));
}

TEST_CASE("EventId: threads mint disjoint ids") {
  constexpr int kPerThread = 50'000;
  std::vector<EventId> first(kPerThread);
  std::vector<EventId> second(kPerThread);
  std::thread t1([&] {
    for (EventId& id : first) id = new_event_id();
  });
  std::thread t2([&] {
    for (EventId& id : second) id = new_event_id();
  });
  t1.join();
  t2.join();
  CHECK(disjoint(first, second));
}

TEST_CASE(
    "EventId: a forked process does not repeat the ids its parent mints") {
  (void)new_event_id();  // the parent's block is filled before the fork
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  constexpr int kCount = 200;
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(fds[0]);
    for (int i = 0; i < kCount; ++i) {
      const EventId id = new_event_id();
      const std::uint64_t words[2] = {id.hi(), id.lo()};
      if (::write(fds[1], words, sizeof words) != sizeof words) ::_exit(1);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::vector<EventId> parent;
  parent.reserve(kCount);
  for (int i = 0; i < kCount; ++i) parent.push_back(new_event_id());
  std::vector<EventId> from_child;
  std::uint64_t words[2];
  while (::read(fds[0], words, sizeof words) == sizeof words)
    from_child.emplace_back(words[0], words[1]);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(from_child.size() == kCount);
  CHECK(disjoint(parent, from_child));
}

TEST_CASE(
    "Config: runtime.node_id defaults to <hostname>:<pid> and is checked") {
  const RuntimeConfig defaults = config_of({});
  CHECK(defaults.runtime_node_id.empty());
  const std::string derived = node_id(defaults);
  CHECK(derived.ends_with(":" + std::to_string(::getpid())));
  CHECK(derived.size() > std::to_string(::getpid()).size() + 1);
  CHECK(node_id(config_of({{"runtime.node_id", "eu-1"}})) == "eu-1");
  CHECK_THROWS_WITH_AS(config_of({{"runtime.node_id", "eu 1"}}),
                       doctest::Contains("'runtime.node_id' is 'eu 1'"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(config_of({{"runtime.node_id", std::string(256, 'n')}}),
                       doctest::Contains("at most 255 bytes"), ConfigError);
}

}  // namespace herald::test
