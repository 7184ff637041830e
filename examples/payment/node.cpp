// The PaymentConfirmed example as one node of a cluster (the nats backend):
// `tools/dev/main-job --nats` runs three of them, each a process hosting
// some of the example's contexts, on a 3-server NATS JetStream cluster.
//
// The node is configured by HERALD_* environment variables like any Herald
// program (backend.kind = nats, its servers, its name, the contexts it
// hosts and its local store), and installs exactly the contexts it hosts:
//
//   commerce.order             places and pays the five orders (skipping
//                              those an earlier run paid), one every
//                              --pause-ms, then serves until stopped
//   commerce.notifications,fx  receives PaymentConfirmed from the orders
//                              node's stream and sends a message to each
//                              customer's room on the rooms node; serves
//                              until stopped
//   chat.rooms                 receives those messages and prints each
//                              room as it fills; once every room holds a
//                              message (and --settle-ms passed with no
//                              more), checks that each holds exactly one
//                              and exits (0 if so)
//
// Every line it prints starts with the node's name. SIGTERM or SIGINT stop
// a serving node cleanly; SIGKILL is a crash, after which the node started
// again on the same database goes on where the store says.
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "chat/rooms.h"
#include "commerce/notifications.h"
#include "commerce/order.h"
#include "flaky_converter.hpp"
#include "fx.h"
#include "purchases.hpp"
#include <herald/config.hpp>
#include <herald/executor.hpp>
#include <herald/log.hpp>
#include <herald/runtime.hpp>
#include <unistd.h>

namespace {

using namespace std::chrono_literals;
using commerce::order::Money;

using payment::kPurchases;
using payment::Purchase;

std::atomic<bool> g_stop{false};

extern "C" void on_stop(int /*signal*/) { g_stop.store(true); }

std::string shortName(const std::string& qualified) {
  return qualified.substr(qualified.rfind('.') + 1);
}

// The runtime's log lines that tell the story, printed with the node's name;
// the others are dropped.
class StoryLog final : public herald::LogSink {
 public:
  explicit StoryLog(std::string node) : node_(std::move(node)) {}
  void write(const nlohmann::json& line) override {
    const std::string event = line.value("event", "");
    std::string text;
    if (event == "handler.log") {
      text = fmt::format("{}: {}", shortName(line.value("handler", "")),
                         line.value("message", ""));
    } else if (event == "delivery.fault") {
      text = fmt::format("{}: attempt {} on {} failed: {}",
                         shortName(line.value("subscription", "")),
                         line.value("attempt", 0), line.value("eventId", ""),
                         line.value("message", ""));
    } else if (event == "runtime.recover") {
      text = fmt::format(
          "recovered from its store: {} deliveries queued again, {} "
          "messages posted again",
          line.value("deliveriesRedriven", 0),
          line.value("messagesReposted", 0));
    } else if (line.value("level", "") == "error") {
      text = line.dump();
    } else {
      return;
    }
    say(text);
  }
  void say(const std::string& text) {
    const std::lock_guard lock(mutex_);
    fmt::print("[{}] {}\n", node_, text);
    std::fflush(stdout);
  }

 private:
  std::string node_;
  std::mutex mutex_;
};

bool hosts(const herald::RuntimeConfig& config, const std::string& context) {
  const std::string list = "," + config.backend_nats_contexts + ",";
  return list.find("," + context + ",") != std::string::npos;
}

void pay_orders(herald::Runtime& rt, StoryLog& story,
                std::chrono::milliseconds pause) {
  for (const Purchase& p : kPurchases) {
    if (g_stop.load()) return;
    const auto user = commerce::order::UserId::from_raw(p.user);
    auto order = commerce::order::Order::at(
        rt, commerce::order::OrderId::from_raw(p.order));
    if (order.statusOf() == commerce::order::Status::Paid) {
      story.say(
          fmt::format("{} by {}: paid in an earlier run", p.order, p.user));
      continue;
    }
    order.place(user, Money{p.cents, p.currency});
    order.markPaid(
        commerce::order::InternalCaller{},
        commerce::order::AuthId::from_raw(fmt::format("auth-{}", p.order)));
    story.say(
        fmt::format("{} by {}: {}.{:02} {} paid, PaymentConfirmed committed",
                    p.order, p.user, p.cents / 100, p.cents % 100, p.currency));
    std::this_thread::sleep_for(pause);
  }
}

// Waits until every room holds a message and none changed for `settle`;
// then each must hold exactly one.
int watch_rooms(herald::Runtime& rt, StoryLog& story,
                std::chrono::milliseconds settle,
                std::chrono::seconds timeout) {
  std::map<std::string, std::size_t> seen;
  auto last_change = std::chrono::steady_clock::now();
  const auto until = last_change + timeout;
  for (;;) {
    bool all = true;
    for (const Purchase& p : kPurchases) {
      const auto room = chat::rooms::RoomId::forUser(
          commerce::order::UserId::from_raw(p.user));
      const std::vector<std::string> history =
          chat::rooms::Room::at(rt, room).history();
      std::size_t& known = seen[p.user];
      for (std::size_t i = known; i < history.size(); ++i) {
        story.say(fmt::format("{}'s room: \"{}\"", p.user, history[i]));
        last_change = std::chrono::steady_clock::now();
      }
      known = history.size();
      all = all && !history.empty();
    }
    const auto now = std::chrono::steady_clock::now();
    if (all && now - last_change >= settle) break;
    if (now >= until || g_stop.load()) {
      story.say("gave up waiting for every room to hold its message");
      return 1;
    }
    std::this_thread::sleep_for(50ms);
  }
  int wrong = 0;
  for (const auto& [user, count] : seen) {
    if (count != 1) {
      story.say(fmt::format("{}'s room holds {} messages instead of one", user,
                            count));
      ++wrong;
    }
  }
  if (wrong == 0)
    story.say(fmt::format(
        "every payment reached its room exactly once ({} rooms)", seen.size()));
  return wrong == 0 ? 0 : 1;
}

struct Options {
  std::chrono::milliseconds pause = 400ms;
  std::chrono::milliseconds settle = 1500ms;
  std::chrono::seconds timeout = 120s;
};

int run(const Options& options) {
  const herald::RuntimeConfig config = herald::load_config({});
  if (config.backend_kind != herald::BackendKind::nats) {
    fmt::print(stderr,
               "payment_node: HERALD_BACKEND_KIND must be nats (see "
               "tools/dev/main-job --nats)\n");
    return 2;
  }
  StoryLog story(config.backend_nats_node);
  const auto executor = herald::make_executor(config);
  herald::Runtime rt(config, *executor, nullptr, &story);
  payment::FlakyConverter converter;
  const bool orders = hosts(config, "commerce.order");
  const bool rooms = hosts(config, "chat.rooms");
  if (orders) rt.install(commerce::order::context());
  if (hosts(config, "fx")) rt.install(fx::context());
  if (hosts(config, "commerce.notifications"))
    rt.install(commerce::notifications::context(converter));
  if (rooms) rt.install(chat::rooms::context());
  rt.recover();
  story.say(fmt::format("hosting {} (process {})", config.backend_nats_contexts,
                        ::getpid()));
  int code = 0;
  if (orders) pay_orders(rt, story, options.pause);
  if (rooms) {
    code = watch_rooms(rt, story, options.settle, options.timeout);
  } else {
    while (!g_stop.load()) std::this_thread::sleep_for(50ms);
  }
  rt.shutdown();
  story.say("stopped");
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGTERM, on_stop);
  std::signal(SIGINT, on_stop);
  try {
    Options options;
    for (int i = 1; i + 1 < argc; i += 2) {
      const std::string flag = argv[i];
      const int value = std::stoi(argv[i + 1]);
      if (flag == "--pause-ms") {
        options.pause = std::chrono::milliseconds(value);
      } else if (flag == "--settle-ms") {
        options.settle = std::chrono::milliseconds(value);
      } else if (flag == "--timeout-s") {
        options.timeout = std::chrono::seconds(value);
      } else {
        fmt::print(stderr, "payment_node: unknown option {}\n", flag);
        return 2;
      }
    }
    if (argc % 2 == 0) {
      fmt::print(stderr,
                 "usage: payment_node [--pause-ms N] [--settle-ms N] "
                 "[--timeout-s N]\n");
      return 2;
    }
    return run(options);
  } catch (const std::exception& e) {
    fmt::print(stderr, "payment_node: {}\n", e.what());
    return 1;
  }
}
