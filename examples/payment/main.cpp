// The PaymentConfirmed example as a running program: the host side of the
// four contexts heraldc compiled from examples/payment/*.herald.
//
// Five orders are placed and paid. Each payment commits a PaymentConfirmed
// event, which the runtime delivers to three subscribers in
// commerce.notifications: a domestic or an international one (by the
// event's region) that posts to the customer's room, and an audit one that
// logs the envelope. The currency converter the host supplies fails its
// first call, so one international delivery fails and is retried.
//
// Everything runs on the deterministic executor with a fixed seed and
// virtual time, so the output is the same on every run (expected_output.txt;
// the example_payment_runs test compares, with the event ids, which are
// minted fresh in each run, replaced by their order of appearance).
//
// On a durable backend (HERALD_BACKEND_KIND=sqlite and
// HERALD_BACKEND_SQLITE_PATH=payment.db, or `tools/dev/main-job --sqlite`)
// the program can be killed and run again: orders already paid in an
// earlier run are skipped (their state is read back from the store), the
// deliveries that were committed but not made are made by the runtime's
// recovery, and no payment reaches a room twice. `--kill-after-payments N`
// kills the process with SIGKILL after the Nth payment, as a crash would.
#include <chrono>
#include <csignal>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
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
#include <herald/deterministic_executor.hpp>
#include <herald/log.hpp>
#include <herald/runtime.hpp>
#include <herald/time.hpp>

namespace {

using commerce::order::Money;
using payment::FlakyConverter;

using payment::kPurchases;
using payment::Purchase;

std::string amountText(std::int64_t cents, const std::string& currency) {
  return fmt::format("{}.{:02} {}", cents / 100, cents % 100, currency);
}

std::string shortName(const std::string& qualified) {
  return qualified.substr(qualified.rfind('.') + 1);
}

std::string millis(herald::Duration d) {
  return fmt::format("{:.1f} ms",
                     std::chrono::duration<double, std::milli>(d).count());
}

bool international(const commerce::order::UserId& user) {
  return commerce::order::regionOf(user) ==
         commerce::order::Region::International;
}

// Each customer's room, read back through the agent's typed handle.
using Rooms = std::map<std::string, std::vector<std::string>>;

Rooms readRooms(herald::Runtime& rt) {
  Rooms rooms;
  for (const Purchase& p : kPurchases) {
    const auto user = commerce::order::UserId::from_raw(p.user);
    rooms[p.user] =
        chat::rooms::Room::at(rt, chat::rooms::RoomId::forUser(user)).history();
  }
  return rooms;
}

// The messages in `now` that `before` did not have; each was posted by the
// subscriber of the customer's region.
void printNewMessages(const Rooms& before, const Rooms& now) {
  for (const Purchase& p : kPurchases) {
    const std::vector<std::string>& messages = now.at(p.user);
    const auto seen = before.count(p.user) ? before.at(p.user).size() : 0;
    const char* subscriber =
        international(commerce::order::UserId::from_raw(p.user))
            ? "OnInternationalPayment"
            : "OnDomesticPayment";
    for (std::size_t i = seen; i < messages.size(); ++i)
      fmt::print("  {} -> {}'s room: \"{}\"\n", subscriber, p.user,
                 messages[i]);
  }
}

void printLog(const std::vector<nlohmann::json>& lines) {
  fmt::print("\nThe runtime log (a herald::LogSink the host passed in):\n");
  for (const nlohmann::json& line : lines) {
    const std::string event = line.value("event", "");
    if (event == "handler.log") {
      fmt::print("  {}: {}\n", shortName(line.value("handler", "")),
                 line.value("message", ""));
    } else if (event == "delivery.fault") {
      fmt::print("  {}: attempt {} on {} failed: {}\n",
                 shortName(line.value("subscription", "")),
                 line.value("attempt", 0), line.value("eventId", ""),
                 line.value("message", ""));
    } else if (event == "delivery.retry") {
      fmt::print("  {}: attempt {} on {} in {}\n",
                 shortName(line.value("subscription", "")),
                 line.value("nextAttempt", 0), line.value("eventId", ""),
                 millis(herald::parse_duration(line.value("delay", ""))));
    } else if (event == "runtime.recover") {
      fmt::print(
          "  runtime: rebuilt from the store: {} deliveries queued again, {} "
          "messages posted again\n",
          line.value("deliveriesRedriven", 0),
          line.value("messagesReposted", 0));
    } else {
      fmt::print("  {}\n", line.dump());
    }
  }
}

void printMetrics(const nlohmann::json& metrics) {
  fmt::print("\nMetrics (rt.metrics_json()):\n");
  for (const auto& [type, m] : metrics.at("eventTypes").items())
    fmt::print("  {}: emitted {}, delivered {}, retried {}, dead-lettered {}\n",
               type, m.at("emitted").get<std::int64_t>(),
               m.at("delivered").get<std::int64_t>(),
               m.at("retried").get<std::int64_t>(),
               m.at("deadLettered").get<std::int64_t>());
  for (const auto& [name, m] : metrics.at("subscriptions").items())
    fmt::print(
        "  {}: delivered {}, filtered {}, retried {}, aborted {}, lag {}\n",
        shortName(name), m.at("delivered").get<std::int64_t>(),
        m.at("filtered").get<std::int64_t>(),
        m.at("retried").get<std::int64_t>(),
        m.at("aborted").get<std::int64_t>(), m.at("lag").get<std::int64_t>());
}

int run(int kill_after_payments) {
  constexpr std::uint64_t kSeed = 42;
  herald::RuntimeConfig config = herald::load_config({});
  const bool durable = config.backend_kind != herald::BackendKind::memory;
  herald::DeterministicExecutor executor(kSeed);
  herald::MemoryLogSink log;
  herald::Runtime rt(config, executor, nullptr, &log);
  FlakyConverter converter;
  rt.install(chat::rooms::context());
  rt.install(commerce::order::context());
  rt.install(fx::context());
  rt.install(commerce::notifications::context(converter));

  // What earlier runs delivered (nothing, on the memory backend).
  const Rooms earlier = durable ? readRooms(rt) : Rooms{};
  if (durable) {
    fmt::print("Backend: {} ({}); recovered {} deliveries and {} messages\n\n",
               herald::backend_kind_name(config.backend_kind),
               config.backend_sqlite_path, rt.recovery().deliveries_redriven,
               rt.recovery().messages_reposted);
  }
  fmt::print(
      "Placing and paying {} orders (deterministic executor, seed {}):\n",
      std::size(kPurchases), kSeed);
  int payments = 0;
  for (const Purchase& p : kPurchases) {
    const auto user = commerce::order::UserId::from_raw(p.user);
    auto order = commerce::order::Order::at(
        rt, commerce::order::OrderId::from_raw(p.order));
    if (order.statusOf() == commerce::order::Status::Paid) {
      fmt::print("  {} by {}: paid in an earlier run\n", p.order, p.user);
      continue;
    }
    order.place(user, Money{p.cents, p.currency});
    order.markPaid(
        commerce::order::InternalCaller{},
        commerce::order::AuthId::from_raw(fmt::format("auth-{}", p.order)));
    fmt::print("  {} by {}: {}, {}\n", p.order, p.user,
               amountText(p.cents, p.currency),
               international(user) ? "international" : "domestic");
    if (++payments == kill_after_payments) {
      fmt::print("  killed with SIGKILL after {} payments\n", payments);
      std::fflush(stdout);
      std::raise(SIGKILL);
    }
  }

  // Time stands still until the executor is told to move it: everything
  // due now is delivered first, and the failed delivery waits for its
  // backoff.
  const herald::Instant start = executor.now();
  executor.run_until_idle();
  const Rooms first = readRooms(rt);
  fmt::print("\nDelivered at once (executor.run_until_idle()):\n");
  printNewMessages(earlier, first);
  for (const auto& [user, messages] : first)
    if (messages.empty())
      fmt::print(
          "  {}'s room is still empty: its delivery failed and waits "
          "for a retry\n",
          user);

  executor.run_all();
  fmt::print(
      "\nDelivered after the retry (executor.run_all(), virtual time "
      "+{}):\n",
      millis(executor.now() - start));
  printNewMessages(first, readRooms(rt));

  printLog(log.lines());
  printMetrics(rt.metrics_json());
  // Each payment reaches its customer's room exactly once, however many
  // runs it took.
  int duplicated = 0;
  for (const auto& [user, messages] : readRooms(rt)) {
    if (messages.size() != 1) {
      fmt::print("{}'s room holds {} messages instead of one\n", user,
                 messages.size());
      ++duplicated;
    }
  }
  return rt.dead_letters().empty() && duplicated == 0 ? 0 : 1;
}
}  // namespace

int main(int argc, char** argv) {
  // Installation and host calls report misuse (a refused call, a value
  // that breaks its refinement) with exceptions that carry the reason.
  try {
    int kill_after_payments = 0;
    if (argc == 3 && std::string(argv[1]) == "--kill-after-payments") {
      kill_after_payments = std::stoi(argv[2]);
    } else if (argc != 1) {
      fmt::print(stderr, "usage: payment [--kill-after-payments N]\n");
      return 2;
    }
    return run(kill_after_payments);
  } catch (const std::exception& e) {
    fmt::print(stderr, "payment: {}\n", e.what());
    return 1;
  }
}
