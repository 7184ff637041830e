// The crash-loop harness: runs the crash-loop program (loop_program.cpp)
// over one sqlite database, kills it with SIGKILL at a random moment of
// each cycle, starts it again, and at the end lets a last process finish
// the work and verify every invariant; then checks the database with
// PRAGMA integrity_check and prints the counts.
//
//   herald_crash_loop PROGRAM DB [--cycles N] [--seed S] [--ops K]
//                     [--max-kill-ms M]
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace {

struct Child {
  pid_t pid = -1;
  int out = -1;  // read end of its stdout
};

Child spawn(const std::vector<std::string>& args) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  std::vector<char*> argv;
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  Child c;
  const int rc =
      posix_spawn(&c.pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    throw std::runtime_error(fmt::format("cannot start {}", args[0]));
  }
  c.out = fds[0];
  return c;
}

std::string read_all(int fd) {
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
    text.append(buf, static_cast<std::size_t>(n));
  close(fd);
  return text;
}

struct Ended {
  std::string out;
  int status = 0;  // as waitpid gives it
  bool exited_0() const {
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
};

// Reads what `c` prints until it ends, and waits for it.
Ended wait_for(const Child& c) {
  Ended e;
  e.out = read_all(c.out);
  waitpid(c.pid, &e.status, 0);
  return e;
}

// The last line of `text` that starts with `tag`, as JSON (null if none).
nlohmann::json last_tagged(const std::string& text, const std::string& tag) {
  nlohmann::json found;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) break;  // a line cut by the kill
    const std::string line = text.substr(at, end - at);
    if (line.starts_with(tag + " "))
      found =
          nlohmann::json::parse(line.substr(tag.size() + 1), nullptr, false);
    at = end + 1;
  }
  return found.is_discarded() ? nlohmann::json() : found;
}

std::string integrity(const std::string& db) {
  sqlite3* handle = nullptr;
  if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) !=
      SQLITE_OK) {
    sqlite3_close(handle);
    return "cannot open";
  }
  std::string result;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(handle, "PRAGMA integrity_check", -1, &stmt,
                         nullptr) == SQLITE_OK) {
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      if (!result.empty()) result += "; ";
      result += reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    }
  }
  sqlite3_finalize(stmt);
  sqlite3_close(handle);
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Kills the crash-loop program at random moments, then verifies"};
  std::string program, db;
  int cycles = 100, ops = 40, max_kill_ms = 60;
  std::uint64_t seed = 1;
  app.add_option("program", program, "loop_program executable")->required();
  app.add_option("db", db, "database file (deleted first)")->required();
  app.add_option("--cycles", cycles, "kill-and-restart cycles");
  app.add_option("--seed", seed, "seed of the kill times and workloads");
  app.add_option("--ops", ops, "host calls each process makes");
  app.add_option("--max-kill-ms", max_kill_ms,
                 "latest moment of a kill after the start, at least "
                 "(the window follows the machine's speed)");
  CLI11_PARSE(app, argc, argv);

  for (const char* suffix : {"", "-wal", "-shm", ".lock"})
    std::filesystem::remove(db + suffix);

  std::int64_t killed = 0, finished = 0, absorbed = 0, redriven = 0;
  const auto start = std::chrono::steady_clock::now();
  // The kill window follows the machine's speed: a first process does its
  // work unkilled, and kills land up to 60% of its time after a start (or
  // --max-kill-ms, if that is longer). With a fixed window a loaded
  // machine, on which a process takes several times as long, gets every
  // kill in the first part of a run, in recovery and the recovered
  // deliveries' attempts; a healthy delivery killed in each of its
  // kMaxAttempts attempts is dead-lettered, as the contract says it must be.
  if (const Ended first = wait_for(
          spawn({program, "run", db, std::to_string(seed * 1000003 - 1),
                 std::to_string(ops)}));
      !first.exited_0()) {
    fmt::print(stderr, "crash loop: the first run failed ({}):\n{}\n",
               first.status, first.out);
    return 1;
  }
  const auto first_run_us =
      std::chrono::duration_cast<std::chrono::microseconds>(
          std::chrono::steady_clock::now() - start)
          .count();
  const int window_us = static_cast<int>(std::max<std::int64_t>(
      std::int64_t{max_kill_ms} * 1000, first_run_us * 6 / 10));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> kill_after(0, window_us);
  for (int cycle = 0; cycle < cycles; ++cycle) {
    Child c = spawn({program, "run", db, std::to_string(seed * 1000003 + cycle),
                     std::to_string(ops)});
    std::this_thread::sleep_for(std::chrono::microseconds(kill_after(rng)));
    kill(c.pid, SIGKILL);
    const Ended run = wait_for(c);
    if (WIFSIGNALED(run.status) && WTERMSIG(run.status) == SIGKILL) {
      ++killed;
    } else if (run.exited_0()) {
      ++finished;
    } else {
      fmt::print(stderr, "crash loop: cycle {}: the program failed ({}):\n{}\n",
                 cycle, run.status, run.out);
      return 1;
    }
    if (auto p = last_tagged(run.out, "progress"); p.is_object())
      absorbed += p.at("deduplicated").get<std::int64_t>();
    if (auto r = last_tagged(run.out, "recovered"); r.is_object())
      redriven += r.at("redriven").get<std::int64_t>();
  }

  const Ended verified = wait_for(spawn({program, "verify", db}));
  const nlohmann::json summary =
      last_tagged("verify " + verified.out, "verify");
  const std::string check = integrity(db);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  fmt::print(
      "crash loop: {} cycles ({} killed, {} finished first; kills within "
      "{} ms of a start, after an unkilled first run of {} ms) in {:.1f} s; "
      "{} events committed; {} dead letters, all accounted for: {}; "
      "{} deliveries queued again by recoveries, at least {} of them absorbed "
      "by dedup (counted after each host call), {} by the verifying process; "
      "integrity_check: {}\n",
      cycles, killed, finished, window_us / 1000, first_run_us / 1000, seconds,
      summary.is_object() ? summary.value("events", 0) : 0,
      summary.is_object() ? summary.value("dead_letters", 0) : 0,
      verified.exited_0() ? "yes" : "no", redriven, absorbed,
      summary.is_object() ? summary.value("deduplicated", 0) : 0, check);
  if (!verified.exited_0()) {
    fmt::print(stderr, "crash loop: verification failed:\n{}\n", verified.out);
    return 1;
  }
  if (check != "ok") return 1;
  return 0;
}
