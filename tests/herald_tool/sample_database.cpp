#include "sample_database.hpp"

namespace herald::test_support {

// commerce.order's log, seconds after kSampleT0:
//   position 1  order-1 seq 1  +0s      position 4  order-1 seq 3  +3s
//   position 2  order-2 seq 1  +1s      position 5  order-2 seq 2  +4s
//   position 3  order-1 seq 2  +2s      position 6  order-1 seq 4  +5s
// (position 5's payload is not JSON). commerce.billing's log has two entries
// of publisher 'billing'; the first is truncated.
//
// OnDomesticPayment (start 0, acked 5): order-1 committed 2 acknowledged 3
//   (seq 3, position 4, dead-lettered), order-2 committed 2 acknowledged 2,
//   position 6 retrying.
// Trail (start 2, acked 6): order-1 committed 4 acknowledged 4, order-2
//   committed 1 acknowledged 2 (seq 2, position 5, dead-lettered as
//   malformed).
// Ledger (billing, start 0, acked 2): billing committed 2 acknowledged 2.
void fill_sample(HeraldDbFixture& db) {
  const char* paid = "commerce.order.PaymentConfirmed";
  const char* placed = "commerce.order.OrderPlaced";
  db.log("commerce.order", "order-1", placed, kSampleT0,
         R"({"orderId":"a","cents":100})");
  db.log("commerce.order", "order-2", placed, kSampleT0 + kSecond,
         R"({"orderId":"b","cents":200})");
  db.log("commerce.order", "order-1", paid, kSampleT0 + 2 * kSecond,
         R"({"orderId":"a","cents":100})");
  db.log("commerce.order", "order-1", paid, kSampleT0 + 3 * kSecond,
         R"({"orderId":"a","amount":{"cents":100,"currency":"EUR"}})");
  db.log("commerce.order", "order-2", paid, kSampleT0 + 4 * kSecond,
         "{not json");
  db.log("commerce.order", "order-1", placed, kSampleT0 + 5 * kSecond,
         R"({"orderId":"c","cents":300})");
  db.log("commerce.billing", "billing", "commerce.billing.Invoiced", kSampleT0,
         R"({"n":1})");
  db.log("commerce.billing", "billing", "commerce.billing.Invoiced",
         kSampleT0 + kSecond, R"({"n":2})");
  db.truncate("commerce.billing", 1);

  db.subscription(kNotifications, "commerce.order", 0, 5);
  db.cursor(kNotifications, "order-1", 2, 3);
  db.cursor(kNotifications, "order-2", 2, 2);
  db.pending_attempt(kNotifications, 6, 2, "converter unavailable");
  db.dead_letter(kNotifications, 4, 5,
                 "handler failed: fx.Converter.convert timed out after 2s "
                 "while converting 100 EUR to USD (attempt 5 of 5)",
                 kSampleT0 + 60 * kSecond);

  db.subscription(kAudit, "commerce.order", 2, 6);
  db.cursor(kAudit, "order-1", 4, 4);
  db.cursor(kAudit, "order-2", 1, 2);
  db.dead_letter(kAudit, 5, 1,
                 "malformed: payload is not JSON: syntax error at byte 2",
                 kSampleT0 + 61 * kSecond);

  db.subscription(kLedger, "commerce.billing", 0, 2);
  db.cursor(kLedger, "billing", 2, 2);

  db.agent("commerce.order.Order", "a");
  db.agent("commerce.order.Order", "b");
  db.agent("commerce.order.Order", "c");
  db.agent("commerce.billing.Account", "x");
  db.agent_message("commerce.order.Order", "a");
  db.dead_message("commerce.billing.Account", "x");
}

}  // namespace herald::test_support
