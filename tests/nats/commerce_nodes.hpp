#pragma once
// Two nodes of the commerce program (tests/runtime/commerce), each a
// process (node_process.hpp): one hosting commerce.order (its Payments
// service publishes PaymentConfirmed), one hosting commerce.notifications
// (whose subscriptions take it). What the consuming node saw is written to
// a file and read back.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "commerce/notifications.h"
#include "node_process.hpp"
#include "temp_database.hpp"
#include <sys/types.h>

namespace herald::test {

// A gateway that sends nothing: what a node delivered is read from its
// inboxes.
class QuietGateway final : public commerce::notifications::Gateway {
 public:
  void notify(const commerce::order::UserId& /*user*/,
              const std::string& /*text*/) override {}
};

// The order context's stream, and the notifications node's consumer of
// PaymentConfirmed on it.
inline constexpr const char* kOrderStream = "HERALD_commerce-order";
inline constexpr const char* kPaymentConsumer =
    "notify-1_commerce-order-PaymentConfirmed";

// The payments the tests confirm, o-1 .. o-kEvents.
constexpr int kEvents = 120;

struct Outcome {
  std::int64_t stream = -1;
  std::size_t audit = 0;
  std::vector<std::string> inbox;
};

Outcome read_outcome(const std::string& path);

// u-1's inbox when each of the kEvents payments arrived once, in order.
std::vector<std::string> expected_inbox();

// An orders node and a notifications node on `servers`, their databases
// and the file for the outcome.
struct TwoNodes {
  explicit TwoNodes(std::string servers, int replicas = 1);

  std::string servers;
  TempDatabase orders_db;
  TempDatabase notifications_db;
  TempDatabase result;  // a file of its own for the outcome
  NodeSpec orders;
  NodeSpec notifications;

  // The consuming node: hosts commerce.notifications; waits (up to 60 s)
  // until u-1's inbox and the audit inbox hold every payment, then writes
  // both inboxes and the order stream's message count to `result`.
  pid_t start_notifications();
  // Waits for the notifications node to end and checks what it saw: every
  // payment once, in order; the audit inbox complete; the stream holding
  // each event once.
  void check_outcome(pid_t consumer);
  // The same checks for a notifications node already ended with `status`
  // (wait_for's: -1 when it ran past its time).
  void check_ended(int status);
};

}  // namespace herald::test
