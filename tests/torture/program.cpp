// The torture program: the host side of source.herald and sink.herald on
// the sqlite backend, on either executor. The harness (torture.cpp) starts
// it again and again over one database, kills it, corrupts rows under it,
// fills its disk and holds its lock; a last `verify` process checks the
// committed state against the model in workload.hpp.
//
//   torture_program run DB [options]     recovers, makes --ops host calls
//                                        of a seeded workload, drains, exits
//   torture_program verify DB [options]  recovers, drains, heals the Gate,
//                                        re-drives, checks every recorder
//
// With `--nats URLS` the program is a node of the nats backend hosting
// both contexts (its local store the same database), whose relays publish
// both logs to their streams.
//
// Both print `violation {json}` lines for what breaks the contract and end
// with a `summary {json}` line. Exit status: 0 done, 1 violation or error,
// 3 the database is in use by another process (a second writer refused).
//
// Built twice: as the current build, and (TORTURE_OLDER) from the sources
// without their `newer` regions, the build a deployment rolls back to.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "torture/sink.h"
#include "torture/source.h"
#include "workload.hpp"
#include <herald/config.hpp>
#include <herald/dead_message.hpp>
#include <herald/deterministic_executor.hpp>
#include <herald/errors.hpp>
#include <herald/runtime.hpp>
#include <herald/threaded_executor.hpp>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

namespace {

using torture::Features;

constexpr int kLockedExit = 3;

struct Options {
  std::string db;
  std::string executor = "threaded";
  std::uint64_t seed = 1;
  int ops = 40;
  bool heal = false;        // the Gate lets every tick pass; re-drive Picky
  bool hold = false;        // wait for a byte on stdin after recovery
  std::int64_t fsize = -1;  // file size cap over the current size
  // Lock or disk faults are injected: in this run (run), in any (verify).
  bool infra = false;
  std::string retention = "24h";  // backend.log_retention
  // Set: a node of the nats backend on these servers (URLs separated by
  // commas) hosting both contexts, its streams with `replicas` replicas.
  std::string nats;
  int replicas = 1;
  Features features;
};

herald::RuntimeConfig config(const Options& o) {
  herald::ConfigSources sources;
  sources.environment = std::map<std::string, std::string>{};
  sources.settings = {
      {"backend.kind", o.nats.empty() ? "sqlite" : "nats"},
      {"backend.sqlite.path", o.db},
      {"backend.sqlite.synchronous", "normal"},
      // Kept for a day, the harness checks emittedAt across restarts over
      // every entry; with 0s entries go once every subscription passed
      // them (as an older build sees it, too).
      {"backend.log_retention", o.retention},
      {"executor.kind", o.executor},
      {"executor.threads", "2"},
      {"executor.seed", std::to_string(o.seed % 1000000)},
      {"retry.base", "1ms"},
      {"retry.cap", "4ms"},
      {"retry.jitter", "0"},
      {"retry.max_attempts", std::to_string(torture::kMaxAttempts)},
      {"limits.payload_bytes", std::to_string(torture::kPayloadLimit)},
      {"limits.cascade_depth", std::to_string(torture::kCascadeLimit)},
      // Retries and dead letters are logged: a log line must never fail.
      {"log.level", "warn"},
  };
  if (!o.nats.empty()) {
    sources.settings.insert({
        {"backend.nats.servers", o.nats},
        {"backend.nats.node", "torture"},
        {"backend.nats.contexts", "torture.source,torture.sink"},
        {"backend.nats.replicas", std::to_string(o.replicas)},
    });
  }
  return herald::load_config(sources);
}

void report(const std::string& tag, const nlohmann::json& what) {
  fmt::print(
      "{} {}\n", tag,
      what.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  std::fflush(stdout);
}

void violation(const std::string& kind, const std::string& what) {
  report("violation", {{"kind", kind}, {"what", what}});
}

// The host's Gateway: refuses some ticks for good, stumbles once per
// process on others; with bad bytes its messages are not valid UTF-8.
class Gateway final : public torture::sink::Gateway {
 public:
  explicit Gateway(bool bad_bytes) : bad_bytes_(bad_bytes) {}
  void charge(const std::string& publisher, std::int64_t n) override {
    const std::string word = bad_bytes_ ? "caf\xe9" : "cafe";
    if (torture::gateway_refuses(n))
      throw std::runtime_error(
          fmt::format("{} declines {}/{}", word, publisher, n));
    if (torture::gateway_stumbles(n)) {
      std::lock_guard lock(mutex_);
      if (stumbled_.insert(fmt::format("{}/{}", publisher, n)).second)
        throw std::runtime_error(
            fmt::format("{} is busy for {}/{}", word, publisher, n));
    }
  }

 private:
  bool bad_bytes_;
  std::mutex mutex_;
  std::set<std::string> stumbled_;
};

class Gate final : public torture::sink::Gate {
 public:
  bool allow(std::int64_t n) override {
    return healed.load() || !torture::gate_refuses(n);
  }
  std::atomic<bool> healed{false};
};

std::unique_ptr<herald::Executor> make_executor(const Options& o) {
  if (o.executor == "deterministic")
    return std::make_unique<herald::DeterministicExecutor>(o.seed);
  return std::make_unique<herald::ThreadedExecutor>(2);
}

struct Program {
  explicit Program(const Options& o)
      : options(o),
        gateway(o.features.bad_bytes),
        executor(make_executor(o)),
        rt(config(o), *executor, nullptr, nullptr) {
    rt.install(
        {torture::source::context(), torture::sink::context(gate, gateway)});
    rt.recover();
  }

  // Runs until nothing is left to do, retries included.
  void drain() {
    if (auto* d = dynamic_cast<herald::DeterministicExecutor*>(executor.get()))
      d->run_all(std::chrono::seconds(5));
    else
      executor->drain();
  }

  std::int64_t counter(const std::string& sub, const char* name) const {
    const nlohmann::json metrics = rt.metrics_json();
    const auto& subs = metrics.at("subscriptions");
    if (!subs.contains(sub)) return 0;
    return subs.at(sub).at(name).get<std::int64_t>();
  }

  std::int64_t total(const char* name) const {
    std::int64_t sum = 0;
    const nlohmann::json metrics = rt.metrics_json();
    for (const auto& [sub, m] : metrics.at("subscriptions").items())
      sum += m.at(name).get<std::int64_t>();
    return sum;
  }

  Options options;
  Gateway gateway;
  Gate gate;
  std::unique_ptr<herald::Executor> executor;
  herald::Runtime rt;
};

std::vector<std::int64_t> counts(herald::Runtime& rt, const std::string& p) {
  return torture::source::Publisher::at(rt, p).counts();
}

// Caps every file this process writes at its size now plus `slack`: the
// disk is full from there on (writes fail with EFBIG, not a signal).
void cap_files(const std::string& db, std::int64_t slack) {
  std::error_code error;
  std::uintmax_t size = 0;
  for (const char* suffix : {"", "-wal"}) {
    const auto s = std::filesystem::file_size(db + suffix, error);
    if (!error) size = std::max<std::uintmax_t>(size, s);
  }
  ::signal(SIGXFSZ, SIG_IGN);
  rlimit limit{};
  limit.rlim_cur =
      static_cast<rlim_t>(size + static_cast<std::uintmax_t>(slack));
  limit.rlim_max = RLIM_INFINITY;
  ::setrlimit(RLIMIT_FSIZE, &limit);
}

// One tick of publisher p, with the model's values for its next number.
void tick(Program& prog, const std::string& p, std::int64_t& refused) {
  herald::Runtime& rt = prog.rt;
  const Features& f = prog.options.features;
  const std::int64_t n = counts(rt, p).at(0) + 1;
  auto pub = torture::source::Publisher::at(rt, p);
  if (torture::oversize_before(n, f)) {
    bool accepted = true;
    try {
      pub.tick(torture::x_of(n, f),
               std::string(
                   static_cast<std::size_t>(torture::kPayloadLimit) + 64, 'o'),
               0);
    } catch (const herald::Error&) {
      accepted = false;
      ++refused;
    }
    if (accepted)
      violation("limit", fmt::format("tick {} of {} over the payload limit "
                                     "was accepted",
                                     n, p));
  }
  pub.tick(torture::x_of(n, f), std::string(torture::blob_of(n, f), 'b'),
           torture::chain_of(n, f));
#ifndef TORTURE_OLDER
  if (f.newer && n % 3 == 0) pub.extra();
#endif
}

// Subscriptions whose handlers never fault by themselves.
const std::vector<std::string> kInnocent = {
    "torture.sink.First",  "torture.sink.Second",    "torture.sink.Evens",
    "torture.sink.Floats", "torture.sink.EchoAudit", "torture.sink.RelayAudit",
};

int run(const Options& o) {
  Program prog(o);
  report("recovered", {{"redriven", prog.rt.recovery().deliveries_redriven},
                       {"retries", prog.rt.recovery().retries_resumed},
                       {"messages", prog.rt.recovery().messages_reposted}});
  if (o.hold) {
    char byte = 0;
    if (::read(STDIN_FILENO, &byte, 1) < 0) return 1;
  }
  if (o.heal) {
    prog.gate.healed = true;
    const std::size_t n = prog.rt.redrive_all("torture.sink.Picky");
    report("healed", {{"redriven", n}});
  }
  if (o.fsize >= 0) cap_files(o.db, o.fsize);
  std::mt19937_64 rng(o.seed);
  std::uniform_int_distribution<int> pick(0, torture::kPublishers - 1);
  std::int64_t refused = 0, faulted = 0;
  for (int i = 0; i < o.ops; ++i) {
    const std::string p = torture::publisher(pick(rng));
    try {
      tick(prog, p, refused);
      if (o.features.bad_bytes && i % 5 == 4) {
        // A string that is not UTF-8 from the host: refused at this call or
        // stored, never a fault of anyone else's commit.
        try {
          torture::source::Note::at(prog.rt, p).write("caf\xe9 au lait");
        } catch (const herald::Error&) {
          ++refused;
        }
      }
    } catch (const std::exception& e) {
      ++faulted;
      if (!o.infra)
        violation("host-fault", fmt::format("tick of {}: {}", p, e.what()));
    }
    if (i % 8 == 7) prog.drain();
    report("progress", {{"deduplicated", prog.total("deduplicated")},
                        {"delivered", prog.total("delivered")}});
  }
  prog.drain();
  if (!o.infra) {
    for (const std::string& sub : kInnocent) {
      if (const std::int64_t r = prog.counter(sub, "retried"); r > 0)
        violation("innocent-fault",
                  fmt::format("{} retried {} deliveries although its handler "
                              "never faults",
                              sub, r));
    }
  }
  report("summary", {{"refused", refused},
                     {"faulted", faulted},
                     {"deduplicated", prog.total("deduplicated")}});
  prog.rt.shutdown();
  return 0;
}

#ifndef TORTURE_OLDER

bool infra_reason(const std::string& error) {
  for (const char* word :
       {"locked", "busy", "full", "disk", "I/O", "process stopped", "EFBIG",
        "too large", "cannot commit", "commit failed"}) {
    if (error.find(word) != std::string::npos) return true;
  }
  return false;
}

struct Checker {
  explicit Checker(Program& p) : prog(p) {}

  void fail(const std::string& kind, const std::string& what) {
    ++violations;
    violation(kind, what);
  }

  // Compares recorder `key` with `expected`: each value exactly once, in
  // increasing order except `unordered` ones (re-driven values arrive when
  // they are re-driven), or accounted for by a dead message.
  void compare(const std::string& key,
               const std::vector<std::int64_t>& expected,
               const std::set<std::int64_t>& unordered = {}) {
    const std::vector<std::int64_t> got =
        torture::sink::Seen::at(prog.rt, key).values();
    ++recorders;
    std::map<std::int64_t, int> seen;
    for (std::int64_t v : got) ++seen[v];
    const std::set<std::int64_t>& dead = dead_values[key];
    std::vector<std::int64_t> lost, doubled;
    std::set<std::int64_t> want(expected.begin(), expected.end());
    for (std::int64_t v : expected) {
      const int c = seen.count(v) != 0 ? seen[v] : 0;
      if (c == 0 && dead.count(v) == 0) lost.push_back(v);
      if (c > 1) doubled.push_back(v);
    }
    std::vector<std::int64_t> extra;
    for (const auto& [v, c] : seen)
      if (want.count(v) == 0) extra.push_back(v);
    if (!lost.empty())
      fail("lost",
           fmt::format("{}: {} of {} values never arrived: {}", key,
                       lost.size(), expected.size(), fmt::join(lost, ",")));
    if (!doubled.empty())
      fail("doubled", fmt::format("{}: values applied twice: {}", key,
                                  fmt::join(doubled, ",")));
    if (!extra.empty())
      fail("unexpected", fmt::format("{}: values nobody sent: {}", key,
                                     fmt::join(extra, ",")));
    if (relaxed.count(key.substr(0, key.find('/'))) != 0) return;
    std::int64_t last = 0;
    bool first = true;
    for (std::int64_t v : got) {
      if (unordered.count(v) != 0 || redriven[key].count(v) != 0) continue;
      if (!first && v <= last && want.count(v) != 0) {
        fail("order", fmt::format("{}: {} arrived after {}: {}", key, v, last,
                                  fmt::join(got, ",")));
        break;
      }
      last = v;
      first = false;
    }
  }

  Program& prog;
  int violations = 0;
  int recorders = 0;
  // Recorder key -> values a dead agent message accounts for.
  std::map<std::string, std::set<std::int64_t>> dead_values;
  // Recorder key -> values re-driven by this process.
  std::map<std::string, std::set<std::int64_t>> redriven;
  // Recorder prefixes whose order is not checked (a letter of theirs was
  // re-driven and cannot be mapped to one value).
  std::set<std::string> relaxed;
};

// The recorder prefix of a subscription's deliveries of Tick, keyed by
// publisher, or "" for the others.
std::string tick_recorder(const std::string& sub) {
  if (sub == "torture.sink.First") return "first";
  if (sub == "torture.sink.Evens") return "evens";
  if (sub == "torture.sink.Bands") return "bands";
  if (sub == "torture.sink.Picky") return "picky";
  return "";
}

// The recorder prefix of the Echoes a subscription emits, or "".
std::string echo_recorder(const std::string& sub) {
  if (sub == "torture.sink.First") return "echo/first";
  if (sub == "torture.sink.Second") return "echo/second";
  return "";
}

std::string other_recorder(const std::string& sub) {
  if (sub == "torture.sink.Second") return "second";
  if (sub == "torture.sink.EchoAudit") return "echo";
  if (sub == "torture.sink.RelayAudit") return "relay";
  if (sub == "torture.sink.Chainer") return "chain";
  if (sub == "torture.sink.NovelAudit") return "novel";
  return "floats";
}

std::vector<std::int64_t> range_where(
    std::int64_t last, const std::function<bool(std::int64_t)>& keep) {
  std::vector<std::int64_t> out;
  for (std::int64_t n = 1; n <= last; ++n)
    if (keep(n)) out.push_back(n);
  return out;
}

int verify(const Options& o) {
  Program prog(o);
  prog.drain();
  Checker check(prog);
  herald::Runtime& rt = prog.rt;
  const Features& f = o.features;

  // Dead letters: each is one the model expects, or (with faults of the
  // machine) one with a reason of the machine, re-driven now.
  std::int64_t expected_letters = 0, machine_letters = 0, malformed = 0,
               deep_letters = 0;
  std::vector<std::pair<std::string, herald::EventId>> to_redrive;
  for (const herald::DeadLetter& letter : rt.dead_letters()) {
    const nlohmann::json j = rt.dead_letter_json(letter);
    const std::string& sub = letter.subscription;
    const auto& env = letter.event->envelope;
    const std::string publisher(env.publisherId);
    const std::string p = publisher.substr(publisher.find('/') + 1);
    const std::int64_t seq = env.sequence;
    // A Tick's number (its publisher's sequence counts its Novel events too).
    const std::int64_t n = j.at("payload").is_object()
                               ? j.at("payload").value("n", std::int64_t{-1})
                               : -1;
    const std::string what =
        fmt::format("{} of {} seq {} ({} attempts: {})", sub, publisher, seq,
                    letter.attempts, letter.last_error);
    if (publisher.starts_with("corrupt-")) {
      ++malformed;  // the harness counts these per corrupted row
      continue;
    }
    if (sub == "torture.sink.Picky" && torture::gate_refuses(n) &&
        letter.last_error.find("is refused") != std::string::npos) {
      ++expected_letters;
      to_redrive.emplace_back(sub, env.eventId);
      check.redriven["picky/" + p].insert(n);
      continue;
    }
    if (sub == "torture.sink.Bands" && torture::gateway_refuses(n) &&
        letter.last_error.find("declines") != std::string::npos) {
      ++expected_letters;
      continue;
    }
    if (sub == "torture.sink.Chainer" && f.deep &&
        letter.last_error.find("depth") != std::string::npos &&
        j.at("payload").is_object()) {
      const auto outcome = torture::chain_outcome(torture::kDeepChain);
      if (j.at("payload").value("left", -1) == outcome.dead_left) {
        ++expected_letters;
        ++deep_letters;
        if (letter.attempts != 1)
          check.fail("deterministic-retried",
                     fmt::format("a cascade past the depth limit fails the "
                                 "same way every time, yet was attempted {} "
                                 "times: {}",
                                 letter.attempts, what));
        continue;
      }
    }
    if (infra_reason(letter.last_error) &&
        (o.infra ||
         letter.last_error.find("process stopped") != std::string::npos)) {
      ++machine_letters;
      to_redrive.emplace_back(sub, env.eventId);
      const std::string tick = tick_recorder(sub);
      const bool is_tick = env.eventType == "torture.source.Tick";
      if (!tick.empty() && is_tick)
        check.redriven[fmt::format("{}/{}", tick, p)].insert(n);
      else
        check.relaxed.insert(other_recorder(sub));
      // First and Second emit an Echo of each Tick they handle: that of a
      // re-driven Tick is emitted now, after the Echoes of later ticks.
      const std::string echo = echo_recorder(sub);
      if (is_tick && !echo.empty())
        check.redriven[fmt::format("{}/{}", echo, p)].insert(n);
      continue;
    }
    check.fail("dead-letter", "unexpected dead letter " + what);
  }
  prog.gate.healed = true;
  for (const auto& [sub, id] : to_redrive) rt.redrive(sub, id);
  prog.drain();

  // Dead agent messages: a Courier's when an older build lacked the kind,
  // or (with faults of the machine) a recorder's or a relay's.
  std::map<std::string, std::set<std::int64_t>> couriers_dead;
  std::int64_t dead_messages = 0;
  for (const herald::DeadMessage& m : rt.dead_messages()) {
    ++dead_messages;
    const auto& msg = m.message;
    const std::string what =
        fmt::format("{}({}).{} {} ({} attempts: {})", msg.agent_kind, msg.key,
                    msg.handler, msg.args.dump(), m.attempts, m.last_error);
    if (msg.agent_kind == "torture.source.Courier" && msg.args.is_object() &&
        msg.args.contains("n")) {
      couriers_dead[msg.key].insert(msg.args.at("n").get<std::int64_t>());
      continue;
    }
    if (o.infra && infra_reason(m.last_error) &&
        msg.agent_kind == "torture.sink.Seen" && msg.args.is_object() &&
        msg.args.contains("v")) {
      check.dead_values[msg.key].insert(msg.args.at("v").get<std::int64_t>());
      continue;
    }
    // A Relay's forward whose commits the machine failed: the value it
    // would have emitted is the one its recorder misses.
    if (o.infra && infra_reason(m.last_error) &&
        msg.agent_kind == "torture.source.Relay" && msg.handler == "forward" &&
        msg.args.is_object() && msg.args.contains("sender") &&
        msg.args.contains("n")) {
      check
          .dead_values["relay/" + msg.args.at("sender").get<std::string>() +
                       "/" + msg.key]
          .insert(msg.args.at("n").get<std::int64_t>());
      continue;
    }
    check.fail("dead-message", "unexpected dead agent message " + what);
  }

  // Every recorder against the model.
  std::int64_t ticks = 0, novel = 0, couriered = 0, chains = 0;
  for (int i = 0; i < torture::kPublishers; ++i) {
    const std::string p = torture::publisher(i);
    const std::vector<std::int64_t> c = counts(rt, p);
    const std::int64_t sent = c.at(0);
    ticks += sent;
    novel += c.at(1);
    couriered += c.at(2);
    auto all = [](std::int64_t) { return true; };
    const std::set<std::int64_t> refusals = [&] {
      std::set<std::int64_t> r;
      for (std::int64_t n = 1; n <= sent; ++n)
        if (torture::gate_refuses(n)) r.insert(n);
      return r;
    }();
    check.compare("first/" + p, range_where(sent, all));
    check.compare("second/" + torture::publisher_id(p), range_where(sent, all));
    check.compare("evens/" + p,
                  range_where(sent, [](std::int64_t n) { return n % 2 == 0; }));
    check.compare("bands/" + p, range_where(sent, [](std::int64_t n) {
                    return torture::band_matches(n) &&
                           !torture::gateway_refuses(n);
                  }));
    check.compare("picky/" + p, range_where(sent, all), refusals);
    // Each Echo of First and Second, per publisher of the tick: the
    // cascade keeps the ticks' order.
    check.compare("echo/first/" + p, range_where(sent, all));
    check.compare("echo/second/" + p, range_where(sent, all));
    check.compare("relay/" + p + "/r0",
                  range_where(sent, [](std::int64_t n) { return n % 2 == 0; }));
    check.compare("relay/" + p + "/r1",
                  range_where(sent, [](std::int64_t n) { return n % 2 == 1; }));
    for (std::int64_t n = 1; n <= sent; ++n) {
      const std::int64_t chain = torture::chain_of(n, f);
      if (chain == 0) continue;
      ++chains;
      const std::string key = fmt::format("chain/{}/{}", p, n);
      const auto got = torture::sink::Seen::at(rt, key).values();
      const auto want = torture::chain_outcome(chain).recorded;
      if (got != want && check.relaxed.count("chain") == 0)
        check.fail("chain",
                   fmt::format("{}: recorded {} instead of {}", key,
                               fmt::join(got, ","), fmt::join(want, ",")));
    }
    check.compare("novel/" + p, range_where(c.at(1), all));
    // Every message to the Courier arrived once in order, or is dead.
    {
      const auto got = torture::source::Courier::at(rt, p).carried();
      std::vector<std::int64_t> merged(got);
      for (std::int64_t v : couriers_dead[p]) merged.push_back(v);
      std::sort(merged.begin(), merged.end());
      if (merged != range_where(c.at(2), all) ||
          !std::is_sorted(got.begin(), got.end()))
        check.fail("courier",
                   fmt::format("Courier({}) carried {} and {} are dead; it was "
                               "sent 1..{}",
                               p, fmt::join(got, ","),
                               fmt::join(couriers_dead[p], ","), c.at(2)));
    }
    if (check.relaxed.count("floats") == 0) {
      const auto got = torture::sink::FloatSeen::at(rt, p).values();
      bool same = got.size() == static_cast<std::size_t>(sent);
      for (std::size_t k = 0; same && k < got.size(); ++k)
        same = torture::same_float(
            got[k], torture::x_of(static_cast<std::int64_t>(k) + 1, f));
      if (!same)
        check.fail("float",
                   fmt::format("FloatSeen({}) holds {} values, not "
                               "the {} sent, or one changed: {}",
                               p, got.size(), sent, fmt::join(got, ",")));
    }
  }

  const std::int64_t deep_chains = chains == 0 ? 0 : [&] {
    std::int64_t d = 0;
    for (int i = 0; i < torture::kPublishers; ++i) {
      const std::int64_t sent = counts(rt, torture::publisher(i)).at(0);
      for (std::int64_t n = 1; n <= sent; ++n)
        if (torture::chain_of(n, f) == torture::kDeepChain) ++d;
    }
    return d;
  }();
  if (deep_letters != deep_chains && check.relaxed.count("chain") == 0)
    check.fail("chain", fmt::format("{} chains went past the depth limit, {} "
                                    "dead letters say so",
                                    deep_chains, deep_letters));
  std::int64_t left = 0;
  for (const herald::DeadLetter& l : rt.dead_letters())
    if (l.subscription == "torture.sink.Picky" &&
        !std::string(l.event->envelope.publisherId).starts_with("corrupt-"))
      ++left;
  if (left != 0)
    check.fail("redrive", fmt::format("{} Picky dead letters are left after "
                                      "healing and re-driving",
                                      left));

  report("summary", {{"ticks", ticks},
                     {"novel", novel},
                     {"couriered", couriered},
                     {"chains", chains},
                     {"recorders", check.recorders},
                     {"expected_letters", expected_letters},
                     {"machine_letters", machine_letters},
                     {"malformed_letters", malformed},
                     {"dead_messages", dead_messages},
                     {"deduplicated", prog.total("deduplicated")},
                     {"violations", check.violations}});
  rt.shutdown();
  return check.violations == 0 ? 0 : 1;
}

#endif

int program_main(int argc, char** argv) {
  CLI::App app{"The torture harness's host program"};
  Options o;
  std::string mode;
  bool no_newer = false;
  app.add_option("mode", mode, "run | verify")->required();
  app.add_option("db", o.db, "sqlite database")->required();
  app.add_option("--executor", o.executor, "deterministic | threaded");
  app.add_option("--seed", o.seed, "seed of the workload and scheduler");
  app.add_option("--ops", o.ops, "host calls to make");
  app.add_flag("--heal", o.heal, "the Gate passes all; re-drive Picky first");
  app.add_flag("--hold", o.hold, "wait for a byte on stdin after recovery");
  app.add_option("--fsize", o.fsize, "cap file sizes this much over now");
  app.add_flag("--infra", o.infra, "faults of the machine are injected");
  app.add_option("--retention", o.retention, "backend.log_retention");
  app.add_flag("--floats", o.features.floats, "Float edge values");
  app.add_flag("--big", o.features.big, "payloads near and over the limit");
  app.add_flag("--deep", o.features.deep, "chains past the depth limit");
  app.add_flag("--bad-bytes", o.features.bad_bytes, "invalid UTF-8");
  app.add_flag("--no-newer", no_newer, "no Novel events or Courier messages");
  app.add_option("--nats", o.nats,
                 "a node of the nats backend on these servers (URLs, "
                 "comma-separated)");
  app.add_option("--replicas", o.replicas, "replicas of the node's streams");
  CLI11_PARSE(app, argc, argv);
  o.features.newer = !no_newer;
  try {
    if (mode == "run") return run(o);
#ifndef TORTURE_OLDER
    if (mode == "verify") return verify(o);
#endif
    fmt::print(stderr, "torture_program: unknown mode {}\n", mode);
    return 2;
  } catch (const herald::Error& e) {
    const std::string what = e.what();
    fmt::print(stderr, "torture_program: {}\n", what);
    if (what.find("is in use by another process") != std::string::npos)
      return kLockedExit;
    report("error", {{"what", what}});
    return 1;
  } catch (const std::exception& e) {
    fmt::print(stderr, "torture_program: {}\n", e.what());
    report("error", {{"what", e.what()}});
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return program_main(argc, argv);
  } catch (...) {
    std::fputs("torture_program: a failure that is not an exception\n", stderr);
    return 1;
  }
}
