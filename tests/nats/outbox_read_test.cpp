// What a node's sqlite local store hands its outbox relay (read_outbox) and
// what it keeps of the events a mirror appends: the same fields whether the
// entries are still in the log's memory (just committed or appended) or are
// read back from the table by a later process.
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "commerce/order.h"
#include "herald/config.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/event_type.hpp"
#include "herald/log.hpp"
#include "herald/runtime.hpp"
#include "herald/sqlite_backend.hpp"
#include "temp_database.hpp"

namespace herald::test::outbox_read {
namespace {

using commerce::order::Money;
using commerce::order::OrderId;
using commerce::order::PaymentConfirmed;
using commerce::order::UserId;

constexpr const char* kOrder = "commerce.order";
constexpr int kPayments = 40;

RuntimeConfig relay_test_config(const std::string& path) {
  ConfigSources sources;
  sources.environment = std::map<std::string, std::string>{};
  sources.settings = {{"backend.kind", "sqlite"},
                      {"backend.sqlite.path", path},
                      {"log.level", "error"}};
  return load_config(sources);
}

PaymentConfirmed payment(int n) {
  return PaymentConfirmed{OrderId::from_raw(fmt::format("o-{}", n)),
                          UserId::from_raw(fmt::format("u-{}", n % 3)),
                          Money{100 + n, "EUR"},
                          commerce::order::Region::Domestic,
                          {}};
}

// The relay's read of `backend`'s log of commerce.order from the start.
std::vector<OutboxEntry> outbox(Backend& backend) {
  std::vector<OutboxEntry> out;
  const std::size_t n = sqlite_transport_store(backend).read_outbox(
      backend.context_log(kOrder), 0, 1000, out);
  out.resize(n);
  return out;
}

// The payload's text as a store keeps it.
std::string payload_text(const LogEntry& entry) {
  if (entry.malformed != nullptr) return entry.malformed->raw;
  return entry.type->codec().encode(entry.payload).dump();
}

void check_same(const OutboxEntry& a, const OutboxEntry& b) {
  CHECK(a.position == b.position);
  CHECK(a.publishable == b.publishable);
  CHECK(a.stored.event_id == b.stored.event_id);
  CHECK(a.stored.event_type == b.stored.event_type);
  CHECK(a.stored.publisher == b.stored.publisher);
  CHECK(a.stored.sequence == b.stored.sequence);
  CHECK(a.stored.emitted_at == b.stored.emitted_at);
  CHECK(a.stored.schema_version == b.stored.schema_version);
  CHECK(a.stored.causation == b.stored.causation);
  CHECK(a.stored.correlation == b.stored.correlation);
  CHECK(a.stored.depth == b.stored.depth);
  CHECK(a.stored.payload == b.stored.payload);
}

}  // namespace

TEST_CASE(
    "Outbox read: entries this process committed are handed to the relay "
    "as stored, the same as a later process reads them from the table") {
  TempDatabase db;
  const RuntimeConfig config = relay_test_config(db.path);
  std::vector<OutboxEntry> in_memory;
  {
    std::shared_ptr<Backend> backend =
        make_sqlite_backend(sqlite_backend_options(config));
    DeterministicExecutor executor(1);
    StderrLogSink log;
    Runtime rt(config, executor, backend, &log);
    rt.install(commerce::order::context());
    rt.recover();
    for (int i = 1; i <= kPayments; ++i)
      rt.publish(kOrder, "relay", payment(i));
    in_memory = outbox(*backend);
  }
  // A new backend over the same file: its log's memory is empty, so every
  // entry is a row read back.
  const std::shared_ptr<Backend> reopened =
      make_sqlite_backend(sqlite_backend_options(config));
  const std::vector<OutboxEntry> from_table = outbox(*reopened);
  REQUIRE(in_memory.size() == static_cast<std::size_t>(kPayments));
  REQUIRE(from_table.size() == in_memory.size());
  for (std::size_t i = 0; i < in_memory.size(); ++i) {
    CAPTURE(i);
    // Not the typed entry, whose payload the relay would encode again.
    CHECK(in_memory[i].entry == nullptr);
    CHECK(from_table[i].entry == nullptr);
    CHECK(in_memory[i].publishable);
    CHECK(in_memory[i].stored.publisher == "relay");
    CHECK(in_memory[i].stored.sequence == static_cast<std::int64_t>(i) + 1);
    CHECK(in_memory[i].stored.payload.find(fmt::format("o-{}", i + 1)) !=
          std::string::npos);
    check_same(in_memory[i], from_table[i]);
  }
}

TEST_CASE(
    "Outbox read: a mirror's appended events are kept as a later process "
    "decodes their rows") {
  TempDatabase db;
  const RuntimeConfig config = relay_test_config(db.path);
  std::vector<MirroredEvent> events;
  for (int i = 1; i <= 3; ++i) {
    MirroredEvent e;
    e.event_id = EventId(7, static_cast<std::uint64_t>(i));
    e.event_type = event_type<PaymentConfirmed>().name();
    e.publisher = "node-a";
    e.sequence = i;
    e.emitted_at = Instant(std::chrono::seconds(1'800'000'000 + i));
    e.schema_version = 1;
    if (i == 2) e.causation = EventId(7, 99);
    e.correlation = EventId(7, 100 + static_cast<std::uint64_t>(i));
    e.depth = i - 1;
    const PaymentConfirmed value = payment(i);
    e.payload = event_type<PaymentConfirmed>().codec().encode(&value).dump();
    events.push_back(std::move(e));
  }
  // The third's payload does not decode: kept, marked malformed (D9).
  events[2].payload = R"({"orderId":17})";
  std::vector<LogEntryPtr> appended;
  {
    const std::shared_ptr<Backend> backend =
        make_sqlite_backend(sqlite_backend_options(config));
    ContextLog& log = backend->context_log(kOrder);
    sqlite_transport_store(*backend).append_mirrored(log, events, "ingest.t",
                                                     3);
    log.read(0, 10, appended);
  }
  const std::shared_ptr<Backend> reopened =
      make_sqlite_backend(sqlite_backend_options(config));
  std::vector<LogEntryPtr> read_back;
  reopened->context_log(kOrder).read(0, 10, read_back);
  REQUIRE(appended.size() == 3);
  REQUIRE(read_back.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    const LogEntry& a = *appended[i];
    const LogEntry& b = *read_back[i];
    CHECK(a.position == b.position);
    CHECK(a.type == b.type);
    CHECK(a.envelope.eventId == events[i].event_id);
    CHECK(a.envelope.eventId == b.envelope.eventId);
    CHECK(a.envelope.eventType == b.envelope.eventType);
    CHECK(a.envelope.publisherId == b.envelope.publisherId);
    CHECK(a.envelope.sequence == b.envelope.sequence);
    CHECK(a.envelope.emittedAt == b.envelope.emittedAt);
    CHECK(a.envelope.schemaVersion == b.envelope.schemaVersion);
    CHECK(a.envelope.causationId == b.envelope.causationId);
    CHECK(a.envelope.correlationId == b.envelope.correlationId);
    CHECK(a.envelope.depth == b.envelope.depth);
    CHECK((a.malformed == nullptr) == (b.malformed == nullptr));
    CHECK(payload_text(a) == payload_text(b));
  }
  CHECK(appended[0]->malformed == nullptr);
  CHECK(payload_text(*appended[0]) == events[0].payload);
  CHECK(appended[1]->envelope.causationId == EventId(7, 99));
  CHECK(appended[2]->malformed != nullptr);
}

}  // namespace herald::test::outbox_read
