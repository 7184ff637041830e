// The byte API (herald/bytes.hpp): every event of the parcel program to
// bytes and back, the bytes being the form the runtime stores a payload in,
// bytes of an older schema version read with the defaults, and bytes that
// are no such event refused with a herald::DecodeError of the right kind.
#include "herald/bytes.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "herald/event_type.hpp"
#include "logistics/parcel.h"

namespace {

namespace parcel = logistics::parcel;

herald::Instant instant(std::int64_t ns) {
  return herald::Instant(std::chrono::nanoseconds(ns));
}

parcel::Shipped shipped() {
  return parcel::Shipped{
      .parcelId = parcel::ParcelId::from_raw("p-1"),
      .weight = parcel::Grams::from(1200),
      .carrier = parcel::Carrier::Drone,
      .fragile = true,
      .origin = parcel::Point{.lat = 52.5, .lon = -0.125},
      .legs = {parcel::Leg{parcel::Leg::Road{.km = 12}},
               parcel::Leg{parcel::Leg::Air{.flight = "LH 400",
                                            .hops = {"FRA", "JFK"}}},
               parcel::Leg{parcel::Leg::Held{}}},
      .labels = {{"to", "Zo\xc3\xab"}, {"via", ""}},
      .counts = {{-3, true}, {7, false}},
      .note = std::nullopt,
      .eta = std::chrono::hours(30),
      .at = instant(1'767'225'600'000'000'007)};
}

// The payload's bytes as the runtime stores them: the event type's codec's
// JSON, compact.
template <class E>
std::string stored(const E& event) {
  return herald::event_type<E>().codec().encode(&event).dump();
}

// The kind of the DecodeError that decoding `bytes` as E throws; fails the
// test when it throws none or another error, or its message does not name
// the event type.
template <class E>
herald::DecodeError::Kind decode_error(std::string_view bytes) {
  try {
    (void)herald::decode<E>(bytes);
  } catch (const herald::DecodeError& e) {
    CHECK(std::string_view(e.what()).starts_with(herald::EventInfo<E>::name));
    return e.kind();
  }
  FAIL("decoded: " << bytes);
  return herald::DecodeError::Kind::syntax;
}

using Kind = herald::DecodeError::Kind;

}  // namespace

TEST_CASE("Bytes: every event round-trips, in the form the runtime stores") {
  const parcel::Shipped s = shipped();
  const std::string bytes = herald::encode(s);
  CHECK(bytes == stored(s));
  CHECK(herald::decode<parcel::Shipped>(bytes) == s);

  parcel::Shipped other = s;
  other.note = "leave at the door";
  other.legs.clear();
  other.labels.clear();
  other.fragile = false;
  other.carrier = parcel::Carrier::Post;
  CHECK(herald::encode(other) == stored(other));
  CHECK(herald::decode<parcel::Shipped>(herald::encode(other)) == other);

  const parcel::Delivered d{.parcelId = parcel::ParcelId::from_raw("p-1"),
                            .signedBy = "Ada",
                            .attempts = 3,
                            .at = instant(5)};
  CHECK(herald::encode(d) == stored(d));
  CHECK(herald::decode<parcel::Delivered>(herald::encode(d)) == d);
}

TEST_CASE("Bytes: an event is the object of its fields' forms, by name") {
  CHECK(herald::encode(shipped()) ==
        R"({"at":"2026-01-01T00:00:00.000000007Z","carrier":"Drone",)"
        R"("counts":[[-3,true],[7,false]],"eta":108000000000000,)"
        R"("fragile":true,"labels":{"to":"Zo)"
        "\xc3\xab"
        R"(","via":""},"legs":[{"Road":{"km":12}},)"
        R"({"Air":{"flight":"LH 400","hops":["FRA","JFK"]}},{"Held":{}}],)"
        R"("note":null,"origin":{"lat":52.5,"lon":-0.125},"parcelId":"p-1",)"
        R"("weight":1200})");
}

TEST_CASE("Bytes: a Float that JSON cannot hold round-trips as a string") {
  parcel::Shipped s = shipped();
  s.origin.lat = std::numeric_limits<double>::quiet_NaN();
  s.origin.lon = -std::numeric_limits<double>::infinity();
  const std::string bytes = herald::encode(s);
  CHECK(bytes == stored(s));
  CHECK(bytes.find(R"({"lat":"NaN","lon":"-Infinity"})") != std::string::npos);
  const parcel::Shipped back = herald::decode<parcel::Shipped>(bytes);
  CHECK(std::isnan(back.origin.lat));
  CHECK(back.origin.lon == -std::numeric_limits<double>::infinity());
}

TEST_CASE(
    "Bytes: bytes written before read as the runtime reads them: defaults "
    "for fields an older version lacks, unknown members ignored") {
  const auto d = herald::decode<parcel::Delivered>(
      R"({"at":"2026-01-01T00:00:00Z","parcelId":"p-9","courier":"x"})");
  CHECK(d.parcelId.raw() == "p-9");
  CHECK(d.signedBy == std::nullopt);
  CHECK(d.attempts == 1);
  CHECK(d.at == instant(1'767'225'600'000'000'000));
}

TEST_CASE("Bytes: bytes that are not one JSON value are a syntax error") {
  using D = parcel::Delivered;
  CHECK(decode_error<D>("") == Kind::syntax);
  CHECK(decode_error<D>("{") == Kind::syntax);
  CHECK(decode_error<D>(R"({"parcelId":"p","at":"2026-01-01T00:00:00Z"} 1)") ==
        Kind::syntax);
  CHECK(decode_error<D>(
            "{\"parcelId\":\"\xff\",\"at\":\"2026-01-01T00:00:00Z\"}") ==
        Kind::syntax);
  constexpr char kControl[] = "{\"a\0\":1}";  // a raw control character
  CHECK(decode_error<D>(std::string_view(kControl, sizeof kControl - 1)) ==
        Kind::syntax);
}

TEST_CASE("Bytes: JSON that is not the event's form is a shape error") {
  using D = parcel::Delivered;
  using S = parcel::Shipped;
  CHECK(decode_error<D>("[]") == Kind::shape);
  CHECK(decode_error<D>("null") == Kind::shape);
  CHECK(decode_error<D>(R"({"parcelId":"p-1"})") == Kind::shape);
  CHECK(decode_error<D>(R"({"parcelId":1,"at":"2026-01-01T00:00:00Z"})") ==
        Kind::shape);
  CHECK(decode_error<D>(R"({"parcelId":"p","at":"yesterday"})") == Kind::shape);
  CHECK(
      decode_error<D>(
          R"({"parcelId":"p","attempts":"two","at":"2026-01-01T00:00:00Z"})") ==
      Kind::shape);

  nlohmann::json s = nlohmann::json::parse(herald::encode(shipped()));
  s["carrier"] = "Pigeon";
  CHECK(decode_error<S>(s.dump()) == Kind::shape);
  s = nlohmann::json::parse(herald::encode(shipped()));
  s["legs"][0] = {{"Boat", {{"km", 1}}}};
  CHECK(decode_error<S>(s.dump()) == Kind::shape);
  s = nlohmann::json::parse(herald::encode(shipped()));
  s["counts"] = {{"x", true}};
  CHECK(decode_error<S>(s.dump()) == Kind::shape);
}

TEST_CASE("Bytes: a value outside its type's `where` is a refinement error") {
  CHECK(decode_error<parcel::Delivered>(
            R"({"parcelId":"","at":"2026-01-01T00:00:00Z"})") ==
        Kind::refinement);
  nlohmann::json s = nlohmann::json::parse(herald::encode(shipped()));
  s["weight"] = 0;
  CHECK(decode_error<parcel::Shipped>(s.dump()) == Kind::refinement);
}

TEST_CASE("Bytes: a String that is not valid UTF-8 does not encode") {
  parcel::Shipped s = shipped();
  s.note = "caf\xe9";
  CHECK_THROWS_AS((void)herald::encode(s), herald::InvalidText);
}
