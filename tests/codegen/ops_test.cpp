// The operations generated bodies call (herald/ops.hpp) and the text forms
// of interpolation (herald/text.hpp).
#include "herald/ops.hpp"

#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "herald/errors.hpp"
#include "herald/text.hpp"

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

std::string faultOf(auto&& f) {
  try {
    f();
  } catch (const herald::HandlerFailure& e) {
    return e.what();
  }
  return "no fault";
}

TEST_CASE("Int arithmetic is exact or faults") {
  using namespace herald::ops;
  CHECK(add(2, 3) == 5);
  CHECK(sub(2, 3) == -1);
  CHECK(mul(-4, 3) == -12);
  CHECK(add(kMax - 1, 1) == kMax);
  CHECK(sub(kMin + 1, 1) == kMin);
  CHECK(faultOf([] { return add(kMax, 1); }) ==
        "Int overflow: 9223372036854775807 + 1");
  CHECK(faultOf([] { return sub(kMin, 1); }) ==
        "Int overflow: -9223372036854775808 - 1");
  CHECK(faultOf([] { return mul(kMax / 2 + 1, 2); }) ==
        "Int overflow: 4611686018427387904 * 2");
  CHECK(faultOf([] { return neg(kMin); }) ==
        "Int overflow: -(-9223372036854775808)");
  CHECK(neg(kMax) == kMin + 1);
}

TEST_CASE("division truncates; by zero and INT64_MIN / -1 fault") {
  namespace ops = herald::ops;
  CHECK(ops::div(7, 2) == 3);
  CHECK(ops::div(-7, 2) == -3);
  CHECK(ops::rem(-7, 2) == -1);
  CHECK(ops::rem(7, -2) == 1);
  CHECK(ops::div(kMin, 1) == kMin);
  CHECK(faultOf([] { return ops::div(1, 0); }) == "division by zero: 1 / 0");
  CHECK(faultOf([] { return ops::rem(1, 0); }) == "division by zero: 1 % 0");
  CHECK(faultOf([] { return ops::div(kMin, -1); }) ==
        "Int overflow: -9223372036854775808 / -1");
  CHECK(faultOf([] { return ops::rem(kMin, -1); }) ==
        "Int overflow: -9223372036854775808 % -1");
}

TEST_CASE("fail throws HandlerFailure and stands for any type") {
  CHECK(faultOf([] { herald::fail("order has no customer"); }) ==
        "order has no customer");
  CHECK(faultOf([] { return herald::fail<std::int64_t>("n") + 1; }) == "n");
  CHECK(herald::Unit{} == herald::Unit{});
  CHECK((herald::Unit{} <=> herald::Unit{}) == 0);
}

TEST_CASE("len counts Unicode scalar values") {
  using herald::ops::len;
  CHECK(len("") == 0);
  CHECK(len("abc") == 3);
  CHECK(len("\xC3\xA9t\xC3\xA9") == 3);     // été
  CHECK(len("\xF0\x9F\x98\x80!") == 2);     // U+1F600 and !
  CHECK(len(std::string("a\0b", 3)) == 3);  // NUL is a character
  CHECK(len(std::vector<std::int64_t>{1, 2}) == 2);
  CHECK(len(std::map<std::string, std::int64_t>{{"a", 1}}) == 1);
}

TEST_CASE("String, List, Option and Map built-ins return new values") {
  using namespace herald::ops;
  CHECK(contains("payment", "pay"));
  CHECK_FALSE(contains("payment", "Pay"));
  CHECK(upper("a\xC3\xA9z") == "A\xC3\xA9Z");
  CHECK(lower("ABC-d") == "abc-d");
  std::vector<std::string> list{"a"};
  CHECK(append(list, std::string("b")) == std::vector<std::string>{"a", "b"});
  CHECK(list.size() == 1);
  CHECK(contains(list, std::string("a")));
  std::map<std::string, std::int64_t> m{{"a", 1}};
  CHECK(put(m, std::string("a"), std::int64_t{2}).at("a") == 2);
  CHECK(m.at("a") == 1);
  CHECK(get(m, std::string("a")) == std::optional<std::int64_t>(1));
  CHECK(get(m, std::string("b")) == std::nullopt);
  CHECK(remove(m, std::string("a")).empty());
  CHECK(map_of<std::string, std::int64_t>({{"k", 1}, {"k", 2}}).at("k") == 2);
}

TEST_CASE("Duration literals past nanoseconds fault") {
  CHECK(herald::ops::milliseconds(1500) == std::chrono::milliseconds(1500));
  CHECK(faultOf([] { return herald::ops::milliseconds(kMax / 1000); }) ==
        "Duration overflow: 9223372036854775ms does not fit in nanoseconds");
}

TEST_CASE("text forms") {
  using herald::text;
  CHECK(text("n=", std::int64_t{-42}, " ok=", true, " ", false) ==
        "n=-42 ok=true false");
  CHECK(text(1.0) == "1.0");
  CHECK(text(0.1) == "0.1");
  CHECK(text(-2.5e-300) == "-2.5e-300");
  CHECK(text(std::string("caf\xC3\xA9")) == "caf\xC3\xA9");
  CHECK(text(herald::Unit{}) == "()");
  CHECK(text(std::optional<std::int64_t>(3), " ", std::optional<bool>()) ==
        "Some(3) None");
  CHECK(text(std::vector<std::string>{"a", "b"}) == "[a, b]");
  CHECK(text(std::vector<std::int64_t>{}) == "[]");
  CHECK(text(std::map<std::string, std::int64_t>{}) == "[:]");
  CHECK(text(std::map<std::string, std::int64_t>{{"a", 1}, {"b", 2}}) ==
        "[a: 1, b: 2]");
  CHECK(text(std::vector<std::optional<std::int64_t>>{1, std::nullopt}) ==
        "[Some(1), None]");
}

}  // namespace
