// The text forms string interpolation prints (herald/text.hpp) of numbers,
// whose digits are written out of line, and of a generated program's
// records and sums, which call them: the parcel program of the byte API's
// tests.
#include <cstdint>
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include "herald/text.hpp"
#include "logistics/parcel.h"

namespace {

namespace parcel = logistics::parcel;

TEST_CASE("integers print as their decimal digits") {
  CHECK(herald::text(std::int64_t{0}) == "0");
  CHECK(herald::text(std::int64_t{-42}) == "-42");
  CHECK(herald::text(std::numeric_limits<std::int64_t>::min()) ==
        "-9223372036854775808");
  CHECK(herald::text(std::numeric_limits<std::uint64_t>::max()) ==
        "18446744073709551615");
  CHECK(herald::text(7, " of ", 9u) == "7 of 9");
}

TEST_CASE("a Float prints its shortest form, always as a Float") {
  CHECK(herald::text(1.0) == "1.0");
  CHECK(herald::text(-0.5) == "-0.5");
  CHECK(herald::text(0.1) == "0.1");
  CHECK(herald::text(1e21) == "1e+21");
  CHECK(herald::text(2.5f) == "2.5");
  CHECK(herald::text(std::numeric_limits<double>::infinity()) == "inf");
}

TEST_CASE("a generated record and sum print through the number forms") {
  CHECK(herald::text(parcel::Point{.lat = 1.0, .lon = -2.25}) ==
        "Point { lat: 1.0, lon: -2.25 }");
  CHECK(herald::text(parcel::Leg{parcel::Leg::Road{.km = 12}}) ==
        "Road(km: 12)");
  CHECK(herald::text(parcel::Leg{parcel::Leg::Held{}}) == "Held");
  const parcel::Leg air{parcel::Leg::Air{.flight = "LX8", .hops = {"ZRH"}}};
  parcel::Leg copy = air;
  CHECK(copy == air);
  copy = parcel::Leg{parcel::Leg::Held{}};
  CHECK(herald::text(copy) == "Held");
  CHECK(herald::text(air) == "Air(flight: LX8, hops: [ZRH])");
}

TEST_CASE("an event prints each field in order through its type's form") {
  const parcel::Shipped s{.parcelId = parcel::ParcelId::from_raw("p-1"),
                          .weight = parcel::Grams::from(1200),
                          .carrier = parcel::Carrier::Courier,
                          .fragile = false,
                          .origin = parcel::Point{.lat = 0.5, .lon = 2.0},
                          .legs = {parcel::Leg{parcel::Leg::Held{}},
                                   parcel::Leg{parcel::Leg::Road{.km = 4}}},
                          .labels = {},
                          .counts = {{-3, true}, {7, false}},
                          .note = "fragile",
                          .eta = herald::Duration(1500),
                          .at = herald::Instant{}};
  CHECK(herald::text(s) ==
        "Shipped { parcelId: ParcelId, weight: 1200, carrier: Courier, "
        "fragile: false, origin: Point { lat: 0.5, lon: 2.0 }, "
        "legs: [Held, Road(km: 4)], labels: [:], counts: [-3: true, 7: "
        "false], note: Some(fragile), eta: 1500ns, "
        "at: 1970-01-01T00:00:00.000000000Z }");
}

TEST_CASE("a sum is built as the aggregate it was") {
  const parcel::Leg listed = {parcel::Leg::Road{.km = 3}};
  CHECK(herald::text(listed) == "Road(km: 3)");
  // The first variant, value-initialised.
  CHECK(herald::text(parcel::Leg{}) == "Road(km: 0)");
}

}  // namespace
