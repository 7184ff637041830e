// The checked operations of constant arithmetic (checker/const_fold.cpp) at
// the edges of the Int range, where a wrapping operation would give a
// plausible but wrong value.
#include <cstdint>
#include <limits>

#include <doctest/doctest.h>

#include "checker/eval.h"

using namespace herald;
using namespace herald::check;

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

Folded intOp(ast::BinaryOp op, std::int64_t a, std::int64_t b) {
  return foldBinary(op, FoldDomain::Int, a, b);
}

bool value(const Folded& f, std::int64_t v) {
  return f.status == Folded::Status::Value && f.value == v;
}

}  // namespace

TEST_CASE("constant arithmetic folds values in range") {
  CHECK(value(intOp(ast::BinaryOp::Add, kMax - 1, 1), kMax));
  CHECK(value(intOp(ast::BinaryOp::Sub, kMin + 1, 1), kMin));
  CHECK(value(intOp(ast::BinaryOp::Mul, -3, 4), -12));
  CHECK(value(intOp(ast::BinaryOp::Div, -7, 2), -3));
  CHECK(value(intOp(ast::BinaryOp::Rem, -7, 2), -1));
  CHECK(value(intOp(ast::BinaryOp::Div, kMin, 1), kMin));
  CHECK(value(foldNegation(kMax), -kMax));
}

TEST_CASE("constant arithmetic that leaves the Int range overflows") {
  CHECK(intOp(ast::BinaryOp::Add, kMax, 1).status == Folded::Status::Overflow);
  CHECK(intOp(ast::BinaryOp::Sub, kMin, 1).status == Folded::Status::Overflow);
  CHECK(intOp(ast::BinaryOp::Mul, 3'037'000'500, 3'037'000'500).status ==
        Folded::Status::Overflow);
  CHECK(intOp(ast::BinaryOp::Div, kMin, -1).status == Folded::Status::Overflow);
  CHECK(intOp(ast::BinaryOp::Rem, kMin, -1).status == Folded::Status::Overflow);
  CHECK(foldNegation(kMin).status == Folded::Status::Overflow);
}

TEST_CASE("a constant zero divisor is a division by zero") {
  CHECK(intOp(ast::BinaryOp::Div, 1, 0).status ==
        Folded::Status::DivisionByZero);
  CHECK(intOp(ast::BinaryOp::Rem, kMin, 0).status ==
        Folded::Status::DivisionByZero);
}

TEST_CASE("Durations fold only + and -") {
  CHECK(value(foldBinary(ast::BinaryOp::Add, FoldDomain::Duration, 1000, 500),
              1500));
  CHECK(foldBinary(ast::BinaryOp::Add, FoldDomain::Duration, kMax, 1).status ==
        Folded::Status::Overflow);
  CHECK(foldBinary(ast::BinaryOp::Mul, FoldDomain::Duration, 2, 3).status ==
        Folded::Status::NotFolded);
  CHECK(intOp(ast::BinaryOp::Lt, 1, 2).status == Folded::Status::NotFolded);
}
