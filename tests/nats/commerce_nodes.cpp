#include "commerce_nodes.hpp"

#include <fstream>
#include <thread>
#include <utility>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "commerce/notifications.h"
#include "commerce/order.h"
#include "herald/errors.hpp"
#include "herald/log.hpp"
#include "herald/runtime.hpp"
#include "herald/threaded_executor.hpp"
#include <sys/wait.h>

namespace herald::test {
namespace {

using namespace std::chrono_literals;

// The role "commerce-notifications": result, expected.
int notifications_node(const NodeSpec& spec, const NodeArgs& args) {
  const std::string& result = args.at(0);
  const int expected = int_arg(args, 1);
  ThreadedExecutor executor(2);
  StderrLogSink log;
  QuietGateway gateway;
  Runtime rt(spec.config(), executor, nullptr, &log);
  rt.install(commerce::notifications::context(gateway));
  rt.recover();
  using commerce::notifications::Inbox;
  std::vector<std::string> inbox;
  std::vector<std::string> audit;
  // A query is a host call, which commits: while the servers cannot renew
  // this node's lease (one of them killed or paused, the rest electing a
  // leader), the lease can lapse and the call fail with a CommitError; the
  // node goes on once it is renewed, and the query is asked again.
  const auto query = [&] {
    try {
      inbox = Inbox::at(rt, "u-1").messages();
      audit = Inbox::at(rt, "audit").messages();
      return true;
    } catch (const herald::Error&) {
      return false;
    }
  };
  const auto until = std::chrono::steady_clock::now() + 60s;
  while (std::chrono::steady_clock::now() < until) {
    if (query() && static_cast<int>(inbox.size()) >= expected &&
        static_cast<int>(audit.size()) >= expected)
      break;
    std::this_thread::sleep_for(50ms);
  }
  // Anything more would come now.
  std::this_thread::sleep_for(300ms);
  call_through_lapse(
      [&] {
        inbox = Inbox::at(rt, "u-1").messages();
        audit = Inbox::at(rt, "audit").messages();
      },
      20s);
  std::ofstream out(result);
  out << "stream " << stream_messages(spec.servers, "HERALD_commerce-order")
      << "\n";
  out << "audit " << audit.size() << "\n";
  for (const std::string& line : inbox) out << line << "\n";
  return 0;
}

const NodeRole kNotifications("commerce-notifications", &notifications_node);

}  // namespace

Outcome read_outcome(const std::string& path) {
  Outcome o;
  std::ifstream in(path);
  std::string word;
  in >> word >> o.stream >> word >> o.audit;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) o.inbox.push_back(line);
  return o;
}

std::vector<std::string> expected_inbox() {
  std::vector<std::string> lines;
  for (int i = 1; i <= kEvents; ++i)
    lines.push_back(fmt::format("domestic o-{}:{}", i, i));
  return lines;
}

TwoNodes::TwoNodes(std::string urls, int replicas)
    : servers(std::move(urls)),
      orders{servers, "orders-1", "commerce.order", orders_db.path, replicas},
      notifications{servers, "notify-1", "commerce.notifications",
                    notifications_db.path, replicas} {}

pid_t TwoNodes::start_notifications() {
  return spawn("commerce-notifications", notifications,
               {result.path, std::to_string(kEvents)});
}

void TwoNodes::check_outcome(pid_t consumer) {
  check_ended(wait_for(consumer, std::chrono::seconds(90)));
}

void TwoNodes::check_ended(int status) {
  const Outcome o = read_outcome(result.path);
  const bool exited =
      status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  // Once each, in the publisher's order; nothing published twice.
  const bool right = o.inbox == expected_inbox() &&
                     o.audit == static_cast<std::size_t>(kEvents) &&
                     o.stream == kEvents;
  if (!exited || !right) {
    MESSAGE(node_log_tail(notifications));
    MESSAGE(node_log_tail(orders));
  }
  REQUIRE(status != -1);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(o.inbox == expected_inbox());
  CHECK(o.audit == static_cast<std::size_t>(kEvents));
  CHECK(o.stream == kEvents);
}

}  // namespace herald::test
