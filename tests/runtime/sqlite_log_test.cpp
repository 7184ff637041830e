// The sqlite backend's log beyond the conformance suite: the fan-out takes
// this process's commits from memory, truncation deletes settled entries in
// runs, and the head and publisher sequences outlive the entries a
// truncation deleted: across a restart and from the version 1 layout.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "herald/id_source.hpp"
#include "operator_sql.hpp"
#include "test_world.hpp"

namespace herald::test {
namespace {

PaymentConfirmed payment(int n) {
  return PaymentConfirmed{OrderId::from_raw(fmt::format("o-{}", n)),
                          UserId::from_raw("u-9"),
                          Money{5, "EUR"},
                          commerce::order::Region::Domestic,
                          {}};
}

}  // namespace

TEST_CASE(
    "Sqlite: this process's commits are delivered as committed, not read "
    "back from the file") {
  World w(BackendKind::sqlite);
  w.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  // The row changes after its commit: the fan-out of the process that
  // committed it delivers the event it committed (what a later start reads
  // back is decoded and checked: the D9 tests in sqlite_backend_test.cpp).
  execute(w.database_path(),
          "UPDATE log SET payload = '{\"amount\":\"x\"}' WHERE position = 1");
  w.run_all();
  CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000"});
  CHECK(w.rt().dead_letters(kAudit).empty());
  CHECK(w.sub_metric(kAudit, "delivered") == 1);
}

TEST_CASE(
    "Sqlite: a publisher whose entries were all truncated goes on from its "
    "last sequence, after a restart too") {
  World w(BackendKind::sqlite);
  for (int i = 1; i <= 70; ++i)
    w.rt().publish("commerce.order", "relay", payment(i), new_event_id());
  w.run_all();
  CHECK(w.sub_metric(kAudit, "delivered") == 70);
  // Settled, not yet truncated: the fan-out truncates at its next run.
  CHECK(query_int(w.database_path(),
                  "SELECT count(*) FROM log WHERE context = "
                  "'commerce.order'") == 70);
  w.rt().publish("commerce.order", "other", payment(71), new_event_id());
  w.run_all();
  // That run asked for 70 entries to go (at least 64: a run of them), and
  // the next commit deleted them, leaving the floors they held.
  CHECK(query_int(w.database_path(),
                  "SELECT count(*) FROM log WHERE publisher = 'relay'") == 0);
  CHECK(query_int(w.database_path(),
                  "SELECT count(*) FROM log WHERE context = "
                  "'commerce.order'") == 1);
  CHECK(query_int(w.database_path(),
                  "SELECT sequence FROM publisher_sequence WHERE publisher = "
                  "'relay'") == 70);
  CHECK(query_int(w.database_path(),
                  "SELECT head FROM log_head WHERE context = "
                  "'commerce.order'") == 70);

  w.restart();
  w.rt().publish("commerce.order", "relay", payment(72), new_event_id());
  w.run_all();
  CHECK(query_int(w.database_path(),
                  "SELECT sequence FROM log WHERE publisher = 'relay'") == 71);
  CHECK(query_int(w.database_path(),
                  "SELECT position FROM log WHERE publisher = 'relay'") == 72);
  // Delivered, not taken for a redelivery of relay's sequence 1.
  CHECK(w.sub_metric(kAudit, "delivered") == 1);
  CHECK(w.sub_metric(kAudit, "deduplicated") == 0);
}

TEST_CASE(
    "Sqlite: a version 1 database is migrated, and its log goes on from the "
    "head it recorded") {
  World w(BackendKind::sqlite);
  // Between two starts the file is made what a version 1 runtime left
  // after truncating a context's log empty: its layout, and log_head and
  // publisher_sequence as every commit wrote them then.
  for (int i = 1; i <= 3; ++i)
    w.rt().publish("commerce.order", "relay", payment(i), new_event_id());
  w.run_all();
  CHECK(w.sub_metric(kAudit, "delivered") == 3);
  w.restart();
  execute(w.database_path(),
          "DELETE FROM log WHERE context = 'commerce.order'; "
          "INSERT OR REPLACE INTO log_head(context, head) VALUES "
          "('commerce.order', 3); "
          "INSERT OR REPLACE INTO publisher_sequence(context, publisher, "
          "sequence) VALUES ('commerce.order', 'relay', 3); "
          "CREATE INDEX log_by_time ON log(context, emitted_at); "
          "ALTER TABLE dead_letter DROP COLUMN halts; "
          "PRAGMA user_version = 1");
  w.restart();
  CHECK(query_int(w.database_path(), "PRAGMA user_version") == 3);
  CHECK(query_int(w.database_path(),
                  "SELECT count(*) FROM sqlite_schema WHERE name = "
                  "'log_by_time'") == 0);
  w.rt().publish("commerce.order", "relay", payment(4), new_event_id());
  w.run_all();
  CHECK(query_int(w.database_path(),
                  "SELECT position FROM log WHERE context = "
                  "'commerce.order'") == 4);
  CHECK(query_int(w.database_path(),
                  "SELECT sequence FROM log WHERE context = "
                  "'commerce.order'") == 4);
  CHECK(w.sub_metric(kAudit, "delivered") == 1);
  CHECK(w.sub_metric(kAudit, "deduplicated") == 0);
}

}  // namespace herald::test
