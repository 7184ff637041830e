// The codec seam: typed payloads <-> the JSON wire form, schema versions,
// defaults; the envelope's wire form.
#include <doctest/doctest.h>

#include "test_world.hpp"

namespace herald::test {

TEST_CASE("Codec: a payload round-trips through its JSON wire form") {
  const EventType& type = event_type<PaymentConfirmed>();
  CHECK(type.name() == "commerce.order.PaymentConfirmed");
  CHECK(type.owner() == "commerce.order");
  CHECK(type.schema_version() == 1);
  const PaymentConfirmed e{
      OrderId::from_raw("o-1"), UserId::from_raw("u-1"), Money{1250, "EUR"},
      commerce::order::Region::International,
      DeterministicExecutor::default_start() + std::chrono::nanoseconds(7)};
  const nlohmann::json wire = type.codec().encode(&e);
  CHECK(wire["region"] == "International");
  CHECK(wire["at"] == "2026-01-01T00:00:00.000000007Z");
  CHECK(type.codec().encoded_size(&e) == wire.dump().size());
  const auto decoded = std::static_pointer_cast<const PaymentConfirmed>(
      type.codec().decode(wire, 1));
  CHECK(decoded->orderId == e.orderId);
  CHECK(decoded->amount == e.amount);
  CHECK(decoded->region == e.region);
  CHECK(decoded->at == e.at);
}

TEST_CASE(
    "Codec: fields absent from an older version take their defaults, fields "
    "of a newer version are ignored, a version below 1 is refused") {
  const EventType& type = event_type<PaymentConfirmed>();
  const nlohmann::json old = {{"orderId", "o-1"},
                              {"userId", "u-1"},
                              {"amount", {{"cents", 1}, {"currency", "EUR"}}},
                              {"at", "2026-01-01T00:00:00Z"}};
  const auto decoded = std::static_pointer_cast<const PaymentConfirmed>(
      type.codec().decode(old, 1));
  CHECK(decoded->region == commerce::order::Region::Domestic);
  // A newer build added a defaulted field this build does not know.
  nlohmann::json newer = old;
  newer["region"] = "International";
  newer["channel"] = "web";
  const auto read = std::static_pointer_cast<const PaymentConfirmed>(
      type.codec().decode(newer, 2));
  CHECK(read->orderId == decoded->orderId);
  CHECK(read->region == commerce::order::Region::International);
  CHECK_THROWS_WITH(type.codec().decode(old, 0),
                    doctest::Contains("schema version 0"));
  CHECK_THROWS(type.codec().decode(nlohmann::json{{"orderId", "o-1"}}, 1));
}

TEST_CASE(
    "Envelope: the wire form uses the field names of language.md section 5") {
  // A dead letter keeps the envelope for inspection.
  World dead(1, {{"retry.max_attempts", "1"}});
  dead.executor.injector().fail_delivery(kAudit, 1);
  dead.order("o-1", "u-1").markPaid(InternalCaller{}, AuthId::from_raw("a"));
  dead.executor.run_until_idle();
  const auto letter = dead.rt().dead_letters(kAudit).at(0);
  const nlohmann::json env = envelope_to_json(letter.event->envelope);
  CHECK(env["eventType"] == "commerce.order.PaymentConfirmed");
  CHECK(env["publisherId"] == "commerce.order.Order/o-1");
  CHECK(env["sequence"] == 1);
  CHECK(env["schemaVersion"] == 1);
  CHECK(env["depth"] == 0);
  CHECK(env["causationId"].is_null());
  CHECK(env["correlationId"] == env["eventId"]);
  CHECK(env["emittedAt"] == "2026-01-01T00:00:00.000000000Z");
  CHECK(EventId::parse(env["eventId"].get<std::string>()).has_value());
  CHECK(EventId::parse(env["eventId"].get<std::string>())->str() ==
        env["eventId"]);
}

}  // namespace herald::test
