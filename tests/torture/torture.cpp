// The randomized fault harness. For each seed it runs the torture program
// (program.cpp) over a fresh sqlite database for a few cycles on the
// deterministic or the threaded executor (or both, cycle by cycle), and
// injects the faults switched on at points the seed picks:
//
//   kill           SIGKILL at a random moment of a process
//   recovery-kill  SIGKILL within the first milliseconds (during recovery)
//   lock           a second connection holds the write lock (BEGIN IMMEDIATE)
//   second-writer  a second program process opens the database while the
//                  first one holds it: it must be refused
//   symlink        processes open the database through a symbolic link
//                  (and the second writer does, when both are on)
//   disk           the process's files are capped at their size (a full disk)
//   corrupt        log rows whose payload is not JSON, half of them with an
//                  event id that does not parse, written with sqlite3 once
//                  the subscriptions that take every Tick are in the store
//                  (one new to it starts at the head and owes nothing older)
//   rollback       a cycle runs the older build (no Novel event type, no
//                  Courier agent kind)
//   server-kill    (with --nats-servers) a nats-server SIGKILLed while a
//                  process runs, and started again
//   server-pause   (with --nats-servers) a nats-server paused (SIGSTOP)
//                  for up to 3 s while a process runs
//
// With --nats-servers N (1, or 3 for a cluster) every process is a node of
// the nats backend hosting both contexts on N fresh servers per seed, its
// streams with N replicas; rollback and corrupt do not apply (the older
// build and raw rows written under the relay are the sqlite backend's
// matters). After the verify process, one more process runs until every
// committed entry is in its stream, and the harness checks each stream
// holds every position of its log once, in order, with distinct eventIds.
//
// After the last cycle a `verify` process checks every recorder against the
// model; the harness checks the store itself: PRAGMA integrity_check, every
// corrupted row dead-lettered in every subscription that takes it, no dead
// letter gone without a re-drive, stored emittedAt never decreasing. Any
// violation prints the seed and a command that replays it.
//
//   herald_torture PROGRAM OLDER WORKDIR [--seed S] [--seeds N]
//       [--budget-seconds T] [--faults a,b,...] [--features a,b,...]
//       [--executor deterministic|threaded|mixed|any] [--cycles C] [--ops K]
//       [--nats-servers N]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "child.hpp"
#include "store_probe.hpp"
#ifdef HERALD_TORTURE_NATS
#include "nats_cluster.hpp"
#include "nats_server.hpp"
#include "stream_probe.hpp"
#endif

namespace {

using namespace std::chrono_literals;
using torture::Child;

const std::vector<std::string> kFaults = {
    "kill", "recovery-kill", "lock",     "second-writer", "symlink",
    "disk", "corrupt",       "rollback", "server-kill",   "server-pause"};
// Faults of the servers, and those that do not apply to a nats node.
const std::vector<std::string> kServerFaults = {"server-kill", "server-pause"};
const std::vector<std::string> kSqliteOnlyFaults = {"corrupt", "rollback"};
const std::vector<std::string> kFeatures = {"floats", "big", "deep",
                                            "bad-bytes"};
// Checks of the store that a run can leave out (every other check follows
// from the faults and features switched on).
const std::vector<std::string> kSkippable = {"time", "time-order"};
// Subscriptions that take every Tick, so every corrupted row too.
const std::vector<std::string> kTakeEveryTick = {
    "torture.sink.First", "torture.sink.Second", "torture.sink.Picky",
    "torture.sink.Floats"};
constexpr int kLockedExit = 3;

std::set<std::string> parse_list(const std::string& text,
                                 const std::vector<std::string>& known,
                                 const char* what) {
  std::set<std::string> out;
  if (text == "all") return {known.begin(), known.end()};
  if (text.empty() || text == "none") return out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (std::find(known.begin(), known.end(), item) == known.end())
      throw CLI::ValidationError(fmt::format(
          "unknown {} '{}' (known: {})", what, item, fmt::join(known, ", ")));
    out.insert(item);
  }
  return out;
}

struct Settings {
  std::string program, older, workdir;
  std::set<std::string> faults, features;
  std::string executor = "any";
  int cycles = 0;  // 0: 3..6 picked by the seed
  int ops = 30;
  int max_kill_ms = 150;
  int process_timeout = 60;    // seconds a run may take before it is a hang
  int nats_servers = 0;        // 0: the sqlite backend
  std::set<std::string> skip;  // checks not made
  std::string faults_text, features_text, skip_text;
};

struct Violation {
  std::uint64_t seed;
  std::string kind, what;
};

struct Totals {
  std::int64_t seeds = 0, cycles = 0, processes = 0, killed = 0;
  std::int64_t ticks = 0, letters = 0, malformed = 0, recorders = 0;
  std::int64_t relayed = 0;  // stream messages checked
  std::map<std::string, std::int64_t> executors, faults;
  std::vector<Violation> violations;
};

#ifdef HERALD_TORTURE_NATS
// A seed's nats-servers: one standalone, or a cluster.
class Servers {
 public:
  explicit Servers(int size) {
    if (size == 1) {
      single_ = std::make_unique<herald::test::NatsServer>();
    } else {
      cluster_ = std::make_unique<herald::test::NatsCluster>(size);
    }
  }
  std::string urls() const {
    return single_ ? single_->url() : cluster_->urls();
  }
  int size() const { return single_ ? 1 : cluster_->size(); }
  herald::test::NatsServer& at(int i) {
    return single_ ? *single_ : cluster_->server(i);
  }

 private:
  std::unique_ptr<herald::test::NatsServer> single_;
  std::unique_ptr<herald::test::NatsCluster> cluster_;
};
#else
// Without the NATS client the harness runs the sqlite backend only.
class Servers {
 public:
  explicit Servers(int /*size*/) {
    throw std::runtime_error(
        "--nats-servers: this build has no NATS client (libnats-dev)");
  }
  std::string urls() const { return ""; }
};
#endif

class SeedRun {
 public:
  SeedRun(const Settings& s, std::uint64_t seed, Totals& totals)
      : s_(s),
        seed_(seed),
        totals_(totals),
        rng_(seed * 0x9e3779b97f4a7c15ULL + 1) {}

  void run() {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(s_.workdir) / fmt::format("seed-{}", seed_);
    fs::remove_all(dir);
    fs::create_directories(dir);
    db_ = (dir / "torture.db").string();
    link_ = (dir / "link.db").string();
    fs::create_symlink("torture.db", link_);
    if (s_.nats_servers > 0) {
      servers_ = std::make_unique<Servers>(s_.nats_servers);
      urls_ = servers_->urls();
    }

    mixed_ = s_.executor == "mixed" || (s_.executor == "any" && coin(1, 3));
    executor_ = s_.executor == "deterministic" || s_.executor == "threaded"
                    ? s_.executor
                    : (coin(1, 2) ? "deterministic" : "threaded");
    ++totals_.executors[mixed_ ? "mixed" : executor_];
    // Half the seeds keep the log for a day (the time checks see every
    // entry), half truncate it as soon as every subscription passed.
    retention_ = coin(1, 2) ? "24h" : "0s";
    const int cycles = s_.cycles > 0 ? s_.cycles : between(3, 6);
    for (int cycle = 0; cycle < cycles; ++cycle) this->cycle(cycle);
    finish();
    ++totals_.seeds;
  }

 private:
  std::chrono::milliseconds timeout() const {
    return std::chrono::seconds(s_.process_timeout);
  }
  bool on(const char* fault) const { return s_.faults.count(fault) != 0; }
  bool coin(int k, int n) {
    return std::uniform_int_distribution<int>(1, n)(rng_) <= k;
  }
  int between(int a, int b) {
    return std::uniform_int_distribution<int>(a, b)(rng_);
  }
  void count(const std::string& fault) { ++totals_.faults[fault]; }

  void violation(const std::string& kind, const std::string& what) {
    totals_.violations.push_back({seed_, kind, what});
  }

  std::vector<std::string> features_args() const {
    std::vector<std::string> args;
    for (const std::string& f : s_.features) args.push_back("--" + f);
    return args;
  }

  std::vector<std::string> args(const std::string& binary,
                                const std::string& mode,
                                const std::string& path,
                                const std::string& executor) const {
    std::vector<std::string> a = {
        binary, mode, path, "--executor", executor, "--retention", retention_};
    for (const std::string& f : features_args()) a.push_back(f);
    if (!urls_.empty())
      a.insert(a.end(), {"--nats", urls_, "--replicas",
                         std::to_string(s_.nats_servers)});
    return a;
  }

  void collect(const Child& c, const char* who) {
    for (const std::string& line : c.lines("violation")) {
      const auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_object())
        violation(j.value("kind", "?"),
                  fmt::format("{}: {}", who, j.value("what", line)));
      else
        violation("?", line);
    }
  }

  void cycle(int index) {
    ++totals_.cycles;
    const std::string executor =
        mixed_ ? (coin(1, 2) ? "deterministic" : "threaded") : executor_;
    // A rollback right after a kill finds the newer build's work pending.
    const bool older = on("rollback") && coin(1, last_killed_ ? 2 : 6);
    const bool through_link = on("symlink") && coin(1, 2);
    const bool heal = coin(1, 6);
    const bool second = on("second-writer") && coin(1, 4);
    const bool disk = on("disk") && coin(1, 5);
    const bool lock = on("lock") && coin(1, 4);
    if (on("corrupt") && coin(1, 4)) {
      const auto rows = torture::corrupt_rows(
          db_, kTakeEveryTick, between(1, 3), corrupt_next_, rng_);
      if (!rows.empty()) {
        corrupt_.insert(corrupt_.end(), rows.begin(), rows.end());
        // The rows carry the latest stored time; scanned now, they count as
        // written before the next process.
        for (const auto& t : torture::time_going_back(db_, heads_))
          if (s_.skip.count(t.kind) == 0) violation(t.kind, t.what);
        count("corrupt");
      }
    }
    if (older) count("rollback");
    if (through_link) count("symlink");

    std::vector<std::string> a = args(older ? s_.older : s_.program, "run",
                                      through_link ? link_ : db_, executor);
    a.insert(a.end(),
             {"--seed",
              std::to_string(seed_ * 1000 + static_cast<std::uint64_t>(index)),
              "--ops", std::to_string(s_.ops)});
    if (heal) a.emplace_back("--heal");
    if (second) a.emplace_back("--hold");
    if (disk || lock) {
      a.emplace_back("--infra");
      infra_ = true;
    }
    if (disk) {
      a.insert(a.end(), {"--fsize", std::to_string(between(0, 256) * 1024)});
      count("disk");
    }
    ++totals_.processes;
    Child c(a);
    const auto started = std::chrono::steady_clock::now();
    if (second) second_writer(c);
    std::unique_ptr<torture::LockHolder> holder;
    if (lock) {
      std::this_thread::sleep_for(std::chrono::milliseconds(between(0, 30)));
      holder = std::make_unique<torture::LockHolder>(
          db_, std::chrono::milliseconds(between(50, 1500)));
    }
    server_fault(started);
    const char* kill = nullptr;
    if (on("recovery-kill") && coin(1, 5)) {
      std::this_thread::sleep_until(
          started + std::chrono::microseconds(between(0, 4000)));
      kill = "recovery-kill";
    } else if (on("kill") && coin(3, 4)) {
      std::this_thread::sleep_until(started + std::chrono::microseconds(between(
                                                  0, s_.max_kill_ms * 1000)));
      kill = "kill";
    }
    if (kill != nullptr) c.kill_now();
    const bool in_time = c.wait(timeout());
    if (holder != nullptr && holder->finish()) count("lock");
    last_killed_ = kill != nullptr && c.killed_by_signal();
    if (kill != nullptr && c.killed_by_signal()) {
      ++totals_.killed;
      count(kill);
    }
    collect(c, older ? "older build" : "run");
    if (!in_time) {
      violation("hang", fmt::format("cycle {}: the {} run did not finish in "
                                    "{} s (a lane retrying forever?)",
                                    index, executor, s_.process_timeout));
    } else if (!c.killed_by_signal() && !c.exited(0) && !(disk || lock)) {
      const auto errors = c.lines("error");
      violation(older ? "rollback-start" : "run-failed",
                fmt::format("cycle {} ({}{}): {}: {}", index, executor,
                            older ? ", older build" : "", c.status_text(),
                            errors.empty() ? c.output() : errors.back()));
    }
    check_store(index, heal);
  }

  // A second program process opens the database while `first` holds it
  // (it waits on stdin after recovery): it must be refused as a second
  // writer.
  void second_writer(Child& first) {
    if (!first.await_line("recovered", 30s)) {
      first.release();
      return;  // it failed or was slow to start; the cycle reports it
    }
    const bool link = on("symlink") && coin(1, 2);
    count("second-writer");
    ++totals_.processes;
    std::vector<std::string> a =
        args(s_.program, "run", link ? link_ : db_, executor_);
    a.insert(a.end(), {"--ops", "3", "--seed", "1"});
    Child intruder(a);
    intruder.wait(timeout());
    if (!intruder.exited(kLockedExit))
      violation("second-writer",
                fmt::format("a second process opened the database{} while "
                            "another held it ({}) instead of being refused",
                            link ? " through a symbolic link" : "",
                            intruder.status_text()));
    first.release();
  }

  // While a process runs: a server SIGKILLed and started again, or paused
  // and resumed, at a moment the seed picks.
  void server_fault(std::chrono::steady_clock::time_point started) {
#ifdef HERALD_TORTURE_NATS
    if (!servers_) return;
    const bool kill = on("server-kill") && coin(1, 3);
    const bool pause = !kill && on("server-pause") && coin(1, 3);
    if (!kill && !pause) return;
    herald::test::NatsServer& server =
        servers_->at(between(0, servers_->size() - 1));
    std::this_thread::sleep_until(
        started + std::chrono::microseconds(between(0, s_.max_kill_ms * 1000)));
    if (kill) {
      server.kill();
      std::this_thread::sleep_for(std::chrono::milliseconds(between(0, 1500)));
      server.start();
      count("server-kill");
    } else {
      server.pause();
      std::this_thread::sleep_for(std::chrono::milliseconds(between(0, 3000)));
      server.resume();
      count("server-pause");
    }
#else
    (void)started;
#endif
  }

  // After the verify process: a node runs until every committed entry is
  // in its context's stream; then each stream must hold every position of
  // its log once, in order, each with its own eventId.
  void check_streams() {
#ifdef HERALD_TORTURE_NATS
    if (!servers_) return;
    const std::map<std::string, std::int64_t> heads = torture::log_heads(db_);
    ++totals_.processes;
    std::vector<std::string> a = args(s_.program, "run", db_, executor_);
    a.insert(a.end(), {"--ops", "0", "--seed", "1", "--hold"});
    Child node(a);
    if (!node.await_line("recovered", timeout())) {
      node.release();
      node.wait(timeout());
      violation("relay-start", fmt::format("the relaying node did not start: "
                                           "{}",
                                           node.output()));
      return;
    }
    const auto until = std::chrono::steady_clock::now() + timeout();
    for (const auto& [context, head] : heads) {
      const std::string stream = torture::stream_of(context);
      std::int64_t last = torture::last_position(urls_, stream);
      while (last != head && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(50ms);
        last = torture::last_position(urls_, stream);
      }
      if (last != head)
        violation("relay-lag",
                  fmt::format("{} ends at position {} after {} s, its log at "
                              "{}",
                              stream, last, s_.process_timeout, head));
    }
    node.release();
    if (!node.wait(timeout()) || !node.exited(0))
      violation("relay-stop", fmt::format("the relaying node: {}: {}",
                                          node.status_text(), node.output()));
    collect(node, "relay");
    for (const auto& [context, head] : heads) {
      const std::string stream = torture::stream_of(context);
      const torture::StreamContent content =
          torture::read_stream(urls_, stream);
      if (!content.error.empty()) {
        violation("relay-read", content.error);
        continue;
      }
      totals_.relayed += static_cast<std::int64_t>(content.positions.size());
      std::int64_t expected = 1;
      bool in_order = true;
      for (const std::int64_t position : content.positions) {
        if (position != expected) {
          violation(position < expected ? "relay-duplicate" : "relay-lost",
                    fmt::format("{}: position {} where {} was due", stream,
                                position, expected));
          in_order = false;
          break;
        }
        ++expected;
      }
      if (in_order && expected - 1 != head)
        violation("relay-count", fmt::format("{} holds positions 1..{}, its "
                                             "log 1..{}",
                                             stream, expected - 1, head));
      std::set<std::string> ids(content.ids.begin(), content.ids.end());
      if (ids.size() != content.ids.size())
        violation("relay-duplicate",
                  fmt::format("{}: {} messages but {} distinct eventIds",
                              stream, content.ids.size(), ids.size()));
    }
#endif
  }

  void check_store(int index, bool heal) {
    const std::string check = torture::integrity(db_);
    if (check != "ok")
      violation("integrity", fmt::format("after cycle {}: {}", index, check));
    for (const auto& t : torture::time_going_back(db_, heads_))
      if (s_.skip.count(t.kind) == 0) violation(t.kind, t.what);
    const std::set<torture::LetterKey> now = torture::dead_letter_keys(db_);
    for (const torture::LetterKey& k : letters_) {
      if (now.count(k) != 0) continue;
      if (heal && k.subscription == "torture.sink.Picky") continue;
      violation("letter-lost",
                fmt::format("cycle {}: the dead letter of position {} of {} in "
                            "{} is gone without a re-drive",
                            index, k.position, k.context, k.subscription));
    }
    letters_ = now;
  }

  void finish() {
    ++totals_.processes;
    std::vector<std::string> a = args(s_.program, "verify", db_, executor_);
    a.insert(a.end(), {"--seed", std::to_string(seed_)});
    // A commit the machine refused in any cycle may have ended as a dead
    // letter whose reason is the machine's: verify re-drives it and then
    // checks it applied.
    if (infra_) a.emplace_back("--infra");
    Child v(a);
    const bool in_time = v.wait(2 * timeout());
    collect(v, "verify");
    const auto summaries = v.lines("summary");
    if (!summaries.empty()) {
      const auto j = nlohmann::json::parse(summaries.back(), nullptr, false);
      if (j.is_object()) {
        totals_.ticks += j.value("ticks", 0);
        totals_.letters +=
            j.value("expected_letters", 0) + j.value("machine_letters", 0);
        totals_.recorders += j.value("recorders", 0);
      }
    }
    if (!in_time)
      violation("hang",
                fmt::format("the verifying process did not finish in {} s",
                            2 * s_.process_timeout));
    else if (!v.exited(0) && v.lines("violation").empty())
      violation("verify-failed", fmt::format("{}: {}", v.status_text(),
                                             v.lines("error").empty()
                                                 ? v.output()
                                                 : v.lines("error").back()));
    const std::string check = torture::integrity(db_);
    if (check != "ok") violation("integrity", "at the end: " + check);
    check_streams();
    for (const auto& t : torture::time_going_back(db_, heads_))
      if (s_.skip.count(t.kind) == 0) violation(t.kind, t.what);
    // Every corrupted row is a dead letter, with its own, in every
    // subscription that takes every Tick.
    const std::set<torture::LetterKey> letters = torture::dead_letter_keys(db_);
    for (const torture::CorruptRow& row : corrupt_) {
      for (const std::string& sub : kTakeEveryTick) {
        ++totals_.malformed;
        if (letters.count({sub, row.position, row.context}) == 0)
          violation("malformed",
                    fmt::format("corrupted row at position {} of {} ({}) has "
                                "no dead letter in {}",
                                row.position, row.context,
                                row.bad_id ? "event id does not parse"
                                           : "payload is not JSON",
                                sub));
      }
    }
  }

  const Settings& s_;
  std::uint64_t seed_;
  Totals& totals_;
  std::mt19937_64 rng_;
  std::string db_, link_, executor_, retention_;
  bool mixed_ = false;
  bool last_killed_ = false;
  bool infra_ = false;  // a disk or lock fault was injected in some cycle
  std::vector<torture::CorruptRow> corrupt_;
  int corrupt_next_ = 0;
  std::set<torture::LetterKey> letters_;
  std::map<std::string, std::int64_t> heads_;  // of the last time scan
  std::unique_ptr<Servers> servers_;           // with --nats-servers
  std::string urls_;
};

int harness_main(int argc, char** argv) {
  CLI::App app{"Randomized fault harness of the Herald runtime on sqlite"};
  Settings s;
  std::uint64_t first = 1;
  int seeds = 1;
  double budget = 0;
  s.faults_text = "kill,recovery-kill";
  s.features_text = "";
  app.add_option("program", s.program, "torture program (current build)")
      ->required();
  app.add_option("older", s.older, "torture program (older build)")->required();
  app.add_option("workdir", s.workdir, "directory of the seeds' databases")
      ->required();
  app.add_option("--seed", first, "first seed");
  app.add_option("--seeds", seeds, "how many seeds (first, first+1, ...)");
  app.add_option("--budget-seconds", budget,
                 "start no seed after this many seconds (0: no limit)");
  app.add_option("--faults", s.faults_text,
                 "faults to inject, comma-separated, or all / none: " +
                     fmt::format("{}", fmt::join(kFaults, ", ")));
  app.add_option("--features", s.features_text,
                 "workload features, comma-separated, or all / none: " +
                     fmt::format("{}", fmt::join(kFeatures, ", ")));
  app.add_option("--skip-checks", s.skip_text,
                 "checks not made, comma-separated: " +
                     fmt::format("{}", fmt::join(kSkippable, ", ")));
  app.add_option("--executor", s.executor,
                 "deterministic | threaded | mixed (per cycle) | any")
      ->check(CLI::IsMember({"deterministic", "threaded", "mixed", "any"}));
  app.add_option("--cycles", s.cycles, "cycles per seed (0: 3 to 6)");
  app.add_option("--ops", s.ops, "host calls per process");
  app.add_option("--max-kill-ms", s.max_kill_ms,
                 "latest moment of a kill after a start");
  app.add_option("--process-timeout", s.process_timeout,
                 "seconds a run may take before it counts as a hang");
  app.add_option("--nats-servers", s.nats_servers,
                 "every process a node of the nats backend on this many fresh "
                 "nats-servers per seed (1, or 3: a cluster); 0: sqlite")
      ->check(CLI::IsMember({0, 1, 3}));
  CLI11_PARSE(app, argc, argv);
  try {
    s.faults = parse_list(s.faults_text, kFaults, "fault");
    s.features = parse_list(s.features_text, kFeatures, "feature");
    s.skip = parse_list(s.skip_text, kSkippable, "check");
    const auto& inapplicable =
        s.nats_servers > 0 ? kSqliteOnlyFaults : kServerFaults;
    for (const std::string& fault : inapplicable) {
      if (s.faults.count(fault) == 0) continue;
      if (s.faults_text != "all")
        throw CLI::ValidationError(fmt::format(
            "fault '{}' does not apply {}", fault,
            s.nats_servers > 0 ? "to a nats node" : "without --nats-servers"));
      s.faults.erase(fault);
    }
  } catch (const CLI::ValidationError& e) {
    fmt::print(stderr, "torture: {}\n", e.what());
    return 2;
  }
#ifdef HERALD_TORTURE_NATS
  if (s.nats_servers > 0 && herald::test::find_nats_server().empty()) {
    fmt::print(
        "torture: skipped: nats-server is not installed (Debian: apt-get "
        "install nats-server)\n");
    return 77;  // ctest's skip code
  }
#endif
  std::filesystem::create_directories(s.workdir);

  Totals totals;
  const auto start = std::chrono::steady_clock::now();
  std::set<std::uint64_t> failed;
  for (int i = 0; i < seeds; ++i) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (budget > 0 && elapsed >= budget) break;
    const std::uint64_t seed = first + static_cast<std::uint64_t>(i);
    const std::size_t before = totals.violations.size();
    try {
      SeedRun(s, seed, totals).run();
    } catch (const std::exception& e) {
      totals.violations.push_back({seed, "harness", e.what()});
    }
    if (totals.violations.size() > before) {
      failed.insert(seed);
      for (std::size_t k = before; k < totals.violations.size(); ++k)
        fmt::print("FAIL seed {}: {}: {}\n", seed, totals.violations[k].kind,
                   totals.violations[k].what);
      fmt::print(
          "  replay: {} {} {} {} --seed {} --seeds 1 --faults {} "
          "--features {} --skip-checks {} --executor {} --cycles {} "
          "--ops {} --nats-servers {}\n",
          argv[0], s.program, s.older, s.workdir, seed,
          s.faults_text.empty() ? "none" : s.faults_text,
          s.features_text.empty() ? "none" : s.features_text,
          s.skip_text.empty() ? "none" : s.skip_text, s.executor, s.cycles,
          s.ops, s.nats_servers);
      std::fflush(stdout);
    } else {
      std::filesystem::remove_all(std::filesystem::path(s.workdir) /
                                  fmt::format("seed-{}", seed));
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::map<std::string, std::int64_t> by_kind;
  for (const Violation& v : totals.violations) ++by_kind[v.kind];
  nlohmann::json summary{{"seeds", totals.seeds},
                         {"cycles", totals.cycles},
                         {"processes", totals.processes},
                         {"killed", totals.killed},
                         {"executors", totals.executors},
                         {"faults", totals.faults},
                         {"ticks", totals.ticks},
                         {"dead_letters_checked", totals.letters},
                         {"malformed_checked", totals.malformed},
                         {"recorders_checked", totals.recorders},
                         {"stream_messages_checked", totals.relayed},
                         {"violations", totals.violations.size()},
                         {"violations_by_kind", by_kind},
                         {"failed_seeds", failed},
                         {"seconds", seconds}};
  fmt::print(
      "torture: {} seeds in {:.1f} s; executors {}; faults {}; "
      "{} violations {}\n",
      totals.seeds, seconds, nlohmann::json(totals.executors).dump(),
      nlohmann::json(totals.faults).dump(), totals.violations.size(),
      nlohmann::json(by_kind).dump());
  fmt::print("summary {}\n", summary.dump());
  return totals.violations.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return harness_main(argc, argv);
  } catch (const std::exception& e) {
    std::fputs("torture: ", stderr);
    std::fputs(e.what(), stderr);
    std::fputs("\n", stderr);
    return 1;
  } catch (...) {
    std::fputs("torture: a failure that is not an exception\n", stderr);
    return 1;
  }
}
