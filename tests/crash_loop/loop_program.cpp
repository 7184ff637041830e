// The crash-loop program: the host side of source.herald and sink.herald on
// the sqlite backend and the threaded executor.
//
//   loop_program run DB SEED OPS   recovers, makes OPS host calls (each a
//                                  Publisher.tick of a publisher picked by
//                                  the seeded workload), drains, exits 0
//   loop_program verify DB         recovers, drains, checks every invariant
//                                  against the committed state; prints a
//                                  JSON summary; exits 1 on a violation
//
// `run` is what the harness (crash_loop.cpp) kills with SIGKILL at random
// moments. After each host call it prints a progress line with the
// runtime's counters, so the harness can report how many redeliveries dedup
// absorbed in processes that were later killed.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "loop/sink.h"
#include "loop/source.h"
#include <herald/config.hpp>
#include <herald/dead_message.hpp>
#include <herald/runtime.hpp>
#include <herald/threaded_executor.hpp>

namespace {

constexpr int kPublishers = 4;
// Enough that a kill during each of a healthy delivery's recovered
// attempts, which would dead-letter it too, does not happen by chance.
constexpr std::int64_t kMaxAttempts = 5;
// Subscribers of Tick that record every tick; Picky refuses every tenth.
const std::vector<std::string> kRecorders = {"first", "second", "third"};
// Subscribers that cascade an Echo (their service is the Echo's publisher).
const std::vector<std::string> kEchoing = {"First", "Second"};

std::string publisher(int i) { return fmt::format("p{}", i); }

herald::RuntimeConfig config(const std::string& db) {
  herald::ConfigSources sources;
  sources.environment = std::map<std::string, std::string>{};
  sources.settings = {
      {"backend.kind", "sqlite"},
      {"backend.sqlite.path", db},
      {"backend.sqlite.synchronous", "normal"},
      {"executor.kind", "threaded"},
      {"executor.threads", "2"},
      {"retry.base", "1ms"},
      {"retry.cap", "4ms"},
      {"retry.jitter", "0"},
      {"retry.max_attempts", std::to_string(kMaxAttempts)},
      {"log.level", "off"},
  };
  return herald::load_config(sources);
}

struct Program {
  explicit Program(const std::string& db)
      : executor(2), rt(config(db), executor, nullptr, nullptr) {
    rt.install({loop::source::context(), loop::sink::context()});
    rt.recover();
  }

  std::int64_t counter(const char* name) const {
    std::int64_t total = 0;
    // Held in a variable: a range-for over a member of the temporary would
    // read it after its end.
    const nlohmann::json metrics = rt.metrics_json();
    for (const auto& [sub, m] : metrics.at("subscriptions").items())
      total += m.at(name).get<std::int64_t>();
    return total;
  }

  void progress() const {
    fmt::print("progress {}\n",
               nlohmann::json{{"deduplicated", counter("deduplicated")},
                              {"delivered", counter("delivered")}}
                   .dump());
    std::fflush(stdout);
  }

  herald::ThreadedExecutor executor;
  herald::Runtime rt;
};

int run(const std::string& db, std::uint64_t seed, int ops) {
  Program p(db);
  fmt::print("recovered {}\n",
             nlohmann::json{{"redriven", p.rt.recovery().deliveries_redriven},
                            {"retries", p.rt.recovery().retries_resumed},
                            {"messages", p.rt.recovery().messages_reposted}}
                 .dump());
  std::fflush(stdout);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pick(0, kPublishers - 1);
  for (int i = 0; i < ops; ++i) {
    loop::source::Publisher::at(p.rt, publisher(pick(rng))).tick();
    if (i % 8 == 7) p.executor.drain();
    p.progress();
  }
  p.executor.drain();
  p.progress();
  p.rt.shutdown();
  return 0;
}

// "count last gaps" as Seen.report() writes it.
struct Seen {
  std::int64_t count = 0, last = 0, gaps = 0;
};

Seen seen(herald::Runtime& rt, const std::string& key) {
  Seen s;
  const std::string text = loop::sink::Seen::at(rt, key).report();
  std::istringstream in(text);
  if (!(in >> s.count >> s.last >> s.gaps))
    throw std::runtime_error("unreadable report of " + key + ": " + text);
  return s;
}

int verify(const std::string& db) {
  Program p(db);
  p.executor.drain();
  std::vector<std::string> violations;
  auto expect = [&](bool ok, std::string what) {
    if (!ok) violations.push_back(std::move(what));
  };

  std::int64_t events = 0;
  std::map<std::string, std::int64_t> sent;
  for (int i = 0; i < kPublishers; ++i) {
    const std::string id = publisher(i);
    sent[id] = loop::source::Publisher::at(p.rt, id).sentCount();
    events += sent[id];
  }
  // Every committed tick reached every recorder exactly once, in sequence
  // order with no gap (the publisher's n is its sequence).
  for (const auto& [id, n] : sent) {
    for (const std::string& r : kRecorders) {
      const Seen s = seen(p.rt, r + "/" + id);
      expect(s.count == n && s.last == n && s.gaps == 0,
             fmt::format("{} saw {} of {}'s {} ticks (last {}, gaps {})", r,
                         s.count, id, n, s.last, s.gaps));
    }
    const Seen s = seen(p.rt, "picky/" + id);
    const std::int64_t refused = n / 10;
    const std::int64_t last = n % 10 == 0 ? n - 1 : n;
    expect(s.count == n - refused &&
               s.last == std::max<std::int64_t>(last, 0) &&
               s.gaps == (n > 0 ? (n - 1) / 10 : 0),
           fmt::format("picky saw {} of {}'s {} ticks (last {}, gaps {})",
                       s.count, id, n, s.last, s.gaps));
  }
  // Each echoing subscriber published one Echo per tick, in its own
  // sequence, and EchoAudit recorded each once.
  for (const std::string& service : kEchoing) {
    const Seen s = seen(p.rt, "echo/loop.sink." + service);
    expect(s.count == events && s.last == events && s.gaps == 0,
           fmt::format("EchoAudit saw {} of {}'s {} echoes (last {}, gaps {})",
                       s.count, service, events, s.last, s.gaps));
  }
  // The dead letters are exactly Picky's refusals.
  std::map<std::string, std::int64_t> letters;
  std::int64_t dead = 0;
  for (const herald::DeadLetter& letter : p.rt.dead_letters()) {
    ++dead;
    const auto& env = letter.event->envelope;
    const bool picky = letter.subscription == "loop.sink.Picky";
    expect(
        picky && env.sequence % 10 == 0 &&
            letter.attempts == static_cast<std::uint32_t>(kMaxAttempts) &&
            // Its last attempt failed, or was cut short by a kill: attempts
            // cut short count too, so a handler that crashes the process is
            // dead-lettered as well.
            (letter.last_error.find("is refused") != std::string::npos ||
             letter.last_error.find("the process stopped") !=
                 std::string::npos),
        fmt::format("unexpected dead letter {} of {} seq {} ({} attempts: {})",
                    env.eventId.str(), letter.subscription, env.sequence,
                    letter.attempts, letter.last_error));
    ++letters[std::string(env.publisherId)];
  }
  std::int64_t refused = 0;
  for (const auto& [id, n] : sent) refused += n / 10;
  expect(dead == refused,
         fmt::format("{} dead letters for {} refused ticks", dead, refused));
  expect(p.rt.dead_messages().empty(),
         fmt::format("{} dead agent messages", p.rt.dead_messages().size()));

  nlohmann::json summary{{"events", events},
                         {"dead_letters", dead},
                         {"deduplicated", p.counter("deduplicated")},
                         {"violations", violations}};
  fmt::print("{}\n", summary.dump());
  p.rt.shutdown();
  return violations.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 4 && args[0] == "run")
      return run(args[1], std::stoull(args[2]), std::stoi(args[3]));
    if (args.size() == 2 && args[0] == "verify") return verify(args[1]);
    fmt::print(
        stderr,
        "usage: loop_program run DB SEED OPS | loop_program verify DB\n");
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "loop_program: {}\n", e.what());
    return 1;
  }
}
