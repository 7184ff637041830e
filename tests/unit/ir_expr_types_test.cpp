// The expression type table (ir/expr_types.h): the innermost expression at
// a position, after the checker's records are sorted and nested.
#include <cstdint>

#include <doctest/doctest.h>

#include "ir/expr_types.h"

using namespace herald;
using namespace herald::check;

namespace {

SourceRange in(FileId file, std::uint32_t begin, std::uint32_t end) {
  return {file, begin, end};
}

// The range of the expression at `offset` of `file`, or an empty one.
SourceRange rangeAt(const ExprTypeTable& table, FileId file,
                    std::uint32_t offset) {
  const ExprType* e = table.at(file, offset);
  return e != nullptr ? e->range : SourceRange{};
}

}  // namespace

TEST_CASE("a table not asked to record keeps nothing") {
  TypeTable types;
  ExprTypeTable table;
  table.record(in(0, 10, 12), types.intType());
  table.finish();
  CHECK(table.all().empty());
  CHECK(table.at(0, 11) == nullptr);
}

TEST_CASE("the innermost expression holding a position, its end excluded") {
  TypeTable types;
  ExprTypeTable table;
  table.startRecording();
  // `f(a + b, c)` at 10, recorded as a checker records it: operands before
  // the expressions around them.
  //  10   14  18 20
  //  f(a + b, c)
  table.record(in(0, 12, 13), types.intType());   // a
  table.record(in(0, 16, 17), types.intType());   // b
  table.record(in(0, 12, 17), types.intType());   // a + b
  table.record(in(0, 19, 20), types.boolType());  // c
  table.record(in(0, 10, 21), types.boolType());  // f(a + b, c)
  table.finish();
  CHECK(table.at(0, 9) == nullptr);
  CHECK(rangeAt(table, 0, 10) == in(0, 10, 21));  // the callee's name
  CHECK(rangeAt(table, 0, 11) == in(0, 10, 21));  // `(`
  CHECK(rangeAt(table, 0, 12) == in(0, 12, 13));
  CHECK(rangeAt(table, 0, 13) == in(0, 12, 17));  // the blank after `a`
  CHECK(rangeAt(table, 0, 14) == in(0, 12, 17));  // `+`
  CHECK(rangeAt(table, 0, 15) == in(0, 12, 17));
  CHECK(table.at(0, 16)->range == in(0, 16, 17));
  CHECK(rangeAt(table, 0, 17) == in(0, 10, 21));  // `,`: after `a + b`
  CHECK(table.at(0, 19)->type == types.boolType());
  CHECK(rangeAt(table, 0, 20) == in(0, 10, 21));  // `)`
  CHECK(table.at(0, 21) == nullptr);
  // Another file's expression at the same offset is not this file's.
  CHECK(table.at(1, 12) == nullptr);
}

TEST_CASE("each expression links to the innermost one around it") {
  TypeTable types;
  ExprTypeTable table;
  table.startRecording();
  table.record(in(1, 5, 6), types.intType());
  table.record(in(0, 0, 30), types.intType());
  table.record(in(0, 0, 10), types.intType());
  table.record(in(0, 20, 30), types.intType());
  table.record(in(0, 22, 25), types.intType());
  table.finish();
  const auto& all = table.all();
  REQUIRE(all.size() == 5);
  CHECK(all[0].range == in(0, 0, 30));
  CHECK(all[0].enclosing == ExprType::kNone);
  CHECK(all[1].range == in(0, 0, 10));
  CHECK(all[1].enclosing == 0);
  CHECK(all[2].range == in(0, 20, 30));
  CHECK(all[2].enclosing == 0);
  CHECK(all[3].range == in(0, 22, 25));
  CHECK(all[3].enclosing == 2);
  // A file's first expression is around nothing of the file before it.
  CHECK(all[4].range == in(1, 5, 6));
  CHECK(all[4].enclosing == ExprType::kNone);
  // Between two expressions of the outer one; past a nested one's end.
  CHECK(rangeAt(table, 0, 15) == in(0, 0, 30));
  CHECK(rangeAt(table, 0, 27) == in(0, 20, 30));
  CHECK(table.at(1, 4) == nullptr);
  CHECK(table.at(1, 6) == nullptr);
}

TEST_CASE("an expression recorded twice is kept once, as first recorded") {
  TypeTable types;
  ExprTypeTable table;
  table.startRecording();
  table.record(in(0, 10, 12), types.intType());
  table.record(in(0, 10, 12), types.boolType());
  table.record(in(0, 20, 20), types.intType());  // empty
  table.record(in(0, 30, 32), nullptr);
  table.record(in(0, 40, 42), types.error());
  table.record(in(0, 50, 52), types.list(types.error()));
  table.finish();
  REQUIRE(table.all().size() == 1);
  CHECK(table.at(0, 11)->type == types.intType());
  CHECK(table.at(0, 31) == nullptr);
  CHECK(table.at(0, 41) == nullptr);
  CHECK(table.at(0, 51) == nullptr);
}
