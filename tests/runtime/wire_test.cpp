// herald/wire.hpp, the interface generated codecs are written against: the
// same JSON as herald/codec.hpp's serializers, byte for byte, for built-ins
// and nested Options, Lists and Maps (but NaN and the infinities, which
// nlohmann writes as null), and nlohmann's errors on malformed input.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <herald/codec.hpp>
#include <herald/wire.hpp>

namespace herald::test {
namespace {

// The wire form of `v` and codec.hpp's (nlohmann's conversion) must be the
// same text, and decoding either gives `v` back.
template <class T>
void check_same_form(const T& v) {
  nlohmann::json through_wire;
  wire::put(through_wire, v);
  const nlohmann::json through_codec = v;
  CHECK(through_wire.dump() == through_codec.dump());
  CHECK(wire::get<T>(through_codec) == v);
}

}  // namespace

TEST_CASE("Wire: built-ins have codec.hpp's forms") {
  check_same_form<std::int64_t>(-9223372036854775807 - 1);
  check_same_form(2.5);
  check_same_form(true);
  check_same_form(std::string("a \"quoted\"\n text"));
  check_same_form(Instant{} +
                  std::chrono::nanoseconds(1'700'000'000'000'000'007));
  check_same_form(Duration(-250));
  check_same_form(Unit{});
}

TEST_CASE("Wire: nested options, lists and maps have codec.hpp's forms") {
  check_same_form(std::optional<std::int64_t>());
  check_same_form(std::optional<std::int64_t>(3));
  check_same_form(std::vector<bool>{true, false, true});
  check_same_form(std::optional<std::vector<std::string>>(
      std::vector<std::string>{"a", "b"}));
  check_same_form(std::vector<std::optional<Duration>>{Duration(5), {}});
  check_same_form(std::map<std::string, std::vector<std::int64_t>>{
      {"x", {1, 2}}, {"y", {}}});
  check_same_form(std::map<std::int64_t, std::optional<std::string>>{
      {-1, "minus"}, {7, std::nullopt}});
  check_same_form(std::map<std::string, std::map<bool, double>>{
      {"k", {{false, 0.5}, {true, -1.25}}}});
}

TEST_CASE("Wire: objects are built and read by member") {
  nlohmann::json j;
  wire::set_object(j);
  wire::put(wire::member(j, "n"), std::int64_t{4});
  wire::set_text(wire::member(j, "tag"), "Web");
  CHECK(j.dump() == R"({"n":4,"tag":"Web"})");
  CHECK(wire::contains(j, "n"));
  CHECK_FALSE(wire::contains(j, "absent"));
  CHECK_FALSE(wire::contains(nlohmann::json(3), "n"));
  CHECK(wire::get<std::int64_t>(wire::at(j, "n")) == 4);
  CHECK(wire::text(wire::at(j, "tag")) == "Web");
  CHECK(wire::dump_value(std::optional<std::string>("x")) == R"("x")");
}

TEST_CASE(
    "Wire: NaN and the infinities round-trip as strings, never as null, in "
    "fields and inside Lists and Options") {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const std::pair<double, const char*> forms[] = {
      {inf, R"("Infinity")"},
      {-inf, R"("-Infinity")"},
      {std::numeric_limits<double>::quiet_NaN(), R"("NaN")"}};
  for (const auto& [value, form] : forms) {
    CAPTURE(form);
    nlohmann::json j;
    wire::put(j, value);
    CHECK(j.dump() == form);
    // As a store reads it back: from the text.
    const double back = wire::get<double>(nlohmann::json::parse(j.dump()));
    if (std::isnan(value)) {
      CHECK(std::isnan(back));
    } else {
      CHECK(back == value);
    }
  }
  nlohmann::json list;
  wire::put(list, std::vector<std::optional<double>>{-inf, std::nullopt, 0.5});
  CHECK(list.dump() == R"(["-Infinity",null,0.5])");
  const auto back = wire::get<std::vector<std::optional<double>>>(
      nlohmann::json::parse(list.dump()));
  REQUIRE(back.size() == 3);
  CHECK(back[0] == -inf);
  CHECK_FALSE(back[1].has_value());
  CHECK(back[2] == 0.5);
  // Other strings are not Floats.
  CHECK_THROWS_AS(wire::get<double>(nlohmann::json("inf")),
                  nlohmann::json::type_error);
}

TEST_CASE("Wire: malformed input throws nlohmann's errors with messages") {
  const nlohmann::json j = nlohmann::json::parse(R"({"n":"four","l":3})");
  CHECK_THROWS_WITH_AS(
      wire::at(j, "absent"),
      "[json.exception.out_of_range.403] key 'absent' not found",
      nlohmann::json::out_of_range);
  CHECK_THROWS_WITH_AS(
      wire::get<std::int64_t>(wire::at(j, "n")),
      "[json.exception.type_error.302] type must be number, but is string",
      nlohmann::json::type_error);
  CHECK_THROWS_WITH_AS(
      wire::get<std::vector<std::int64_t>>(wire::at(j, "l")),
      "[json.exception.type_error.302] type must be array, but is number",
      nlohmann::json::type_error);
  CHECK_THROWS_AS(wire::text(wire::at(j, "l")), nlohmann::json::type_error);
  CHECK_THROWS_WITH_AS(
      (wire::get<std::map<std::int64_t, bool>>(nlohmann::json::parse("[[1]]"))),
      "expected a [key, value] pair, got [1]", std::invalid_argument);
}

}  // namespace herald::test
