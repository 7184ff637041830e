// A consuming node SIGKILLed while deliveries are in flight and restarted
// over the same database (separate processes, as in relay_test.cpp). Node B
// hosts commerce.notifications and ingests commerce.order's payments from
// node A's stream; its Gateway (a handler effect outside the commit) is
// slow and appends each call to a file, so the kill lands between effects
// and commits. Checked after the restart, the crash loop's invariants:
// every event A committed had its effect on B at least once, the
// committed records (the inbox, the audit inbox keyed by eventId) hold
// each event once and in its publisher's order, and B's mirror of A's log
// holds each event once.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "commerce/notifications.h"
#include "herald/agent_kind.hpp"
#include "herald/log.hpp"
#include "herald/runtime.hpp"
#include "herald/sqlite_operator.hpp"
#include "herald/threaded_executor.hpp"
#include "nats_server.hpp"
#include "node_process.hpp"
#include "temp_database.hpp"
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace herald::test {
namespace {

using commerce::order::UserId;
using namespace std::chrono_literals;

constexpr int kPayments = 150;
constexpr auto kCount = static_cast<std::size_t>(kPayments);
// International payments: the handler calls the Gateway, then posts.
const std::string kUser = "intl-1";

// Appends every call to a file (one write, O_APPEND: whole lines survive a
// SIGKILL), then takes a while, as a remote call does.
class FileGateway final : public commerce::notifications::Gateway {
 public:
  explicit FileGateway(const std::string& path)
      : fd_(::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644)) {}
  ~FileGateway() override { ::close(fd_); }
  FileGateway(const FileGateway&) = delete;
  FileGateway& operator=(const FileGateway&) = delete;
  void notify(const UserId& /*user*/, const std::string& text) override {
    const std::string line = text + "\n";
    if (::write(fd_, line.data(), line.size()) !=
        static_cast<ssize_t>(line.size()))
      throw std::runtime_error("the gateway's file cannot be written");
    std::this_thread::sleep_for(8ms);
  }

 private:
  int fd_;
};

std::vector<std::string> lines_of(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// Node B: hosts commerce.notifications; runs until the user's inbox and
// the audit inbox hold `expected` posts (then writes both to `result` and
// exits 0) or, when killed first, forever.
// The role "notifications-slow-gateway": effects, result.
int slow_gateway_node(const NodeSpec& spec, const NodeArgs& args) {
  const std::string& effects = args.at(0);
  const std::string& result = args.at(1);
  ThreadedExecutor executor(2);
  StderrLogSink log;
  FileGateway gateway(effects);
  Runtime rt(spec.config(), executor, nullptr, &log);
  rt.install(commerce::notifications::context(gateway));
  rt.recover();
  using commerce::notifications::Inbox;
  const auto until = std::chrono::steady_clock::now() + 60s;
  while (std::chrono::steady_clock::now() < until) {
    if (Inbox::at(rt, kUser).messages().size() >= kCount &&
        Inbox::at(rt, "audit").messages().size() >= kCount)
      break;
    std::this_thread::sleep_for(20ms);
  }
  // A delivery made twice would show now.
  std::this_thread::sleep_for(300ms);
  std::ofstream out(result);
  for (const std::string& line : Inbox::at(rt, kUser).messages())
    out << "inbox " << line << "\n";
  for (const std::string& line : Inbox::at(rt, "audit").messages())
    out << "audit " << line << "\n";
  return 0;
}

const NodeRole kSlowGateway("notifications-slow-gateway", &slow_gateway_node);

TEST_CASE(
    "Node kill: a consuming node SIGKILLed mid-delivery and restarted "
    "delivers every event at least once, records each once, in order") {
  NatsServer server;
  TempDatabase orders_db;
  TempDatabase notifications_db;
  TempDatabase effects;
  TempDatabase result;
  const NodeSpec orders{server.url(), "orders-1", "commerce.order",
                        orders_db.path};
  const NodeSpec notifications{server.url(), "notify-1",
                               "commerce.notifications", notifications_db.path};

  const pid_t first = spawn("notifications-slow-gateway", notifications,
                            {effects.path, result.path});
  const ChildProcess publisher(start_orders(orders, 1, kPayments, 0ms, kUser));
  // B is killed once a third of the effects happened: the rest are in its
  // mirror, its queues or still in the stream.
  const auto until = std::chrono::steady_clock::now() + 20s;
  while (lines_of(effects.path).size() < kCount / 3 &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(5ms);
  stop(first);
  const std::size_t at_kill = lines_of(effects.path).size();
  REQUIRE(at_kill >= kCount / 3);
  REQUIRE(at_kill < kCount);

  const pid_t second = spawn("notifications-slow-gateway", notifications,
                             {effects.path, result.path});
  const int status = wait_for(second, 90s);
  REQUIRE(status != -1);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);

  // Every event's effect happened at least once (those cut off by the kill
  // between the effect and the commit, twice).
  std::map<std::string, int> calls;
  for (const std::string& line : lines_of(effects.path)) ++calls[line];
  int repeated = 0;
  for (int i = 1; i <= kPayments; ++i) {
    const auto it = calls.find(fmt::format("payment o-{}:{}", i, i));
    CHECK_MESSAGE(it != calls.end(), "no effect of o-", i);
    if (it != calls.end() && it->second > 1) repeated += it->second - 1;
  }
  CHECK(calls.size() == kCount);
  MESSAGE("effects before the kill: ", at_kill,
          "; effects made again after the restart: ", repeated);

  // The committed records: each event once, in its publisher's order.
  std::vector<std::string> inbox;
  std::vector<std::string> audit;
  for (const std::string& line : lines_of(result.path)) {
    if (line.rfind("inbox ", 0) == 0) inbox.push_back(line.substr(6));
    if (line.rfind("audit ", 0) == 0) audit.push_back(line.substr(6));
  }
  std::vector<std::string> expected;
  for (int i = 1; i <= kPayments; ++i)
    expected.push_back(fmt::format("international o-{}:{}", i, i));
  CHECK(inbox == expected);
  REQUIRE(audit.size() == kCount);
  const std::regex entry(R"(^o-(\d+):\d+ ([0-9a-f-]{36}) seq=(\d+) .*)");
  std::set<std::string> ids;
  for (std::size_t i = 0; i < audit.size(); ++i) {
    std::smatch m;
    REQUIRE(std::regex_match(audit[i], m, entry));
    CHECK(m[1].str() == std::to_string(i + 1));
    CHECK(m[3].str() == std::to_string(i + 1));
    ids.insert(m[2].str());
  }
  CHECK(ids.size() == kCount);

  // B's mirror of commerce.order: every event appended once (positions
  // are assigned in order, so its head counts them), nothing left to
  // deliver to the subscriptions that take them; the stream holds each
  // once.
  SqliteOperator db(notifications_db.path);
  const op::Status local = db.status();
  bool mirrored = false;
  for (const op::LogStatus& log : local.logs) {
    if (log.context != "commerce.order") continue;
    mirrored = true;
    CHECK(log.head == kPayments);
  }
  CHECK(mirrored);
  for (const op::SubscriptionStatus& s : local.subscriptions) {
    if (s.name == "commerce.notifications.OnInternationalPayment" ||
        s.name == "commerce.notifications.OnPaymentAudit")
      CHECK(s.lag == 0);
  }
  CHECK(stream_messages(server.url(), "HERALD_commerce-order") == kPayments);
}

}  // namespace
}  // namespace herald::test
