// The use table (ir/uses.h): the use at a position and the uses of a
// declaration, after the checker's records are sorted.
#include <cstdint>
#include <vector>

#include <doctest/doctest.h>

#include "ir/uses.h"

using namespace herald;
using namespace herald::check;

namespace {

SourceRange in(FileId file, std::uint32_t begin, std::uint32_t end) {
  return {file, begin, end};
}

}  // namespace

TEST_CASE("a table not asked to record keeps nothing") {
  UseTable table;
  table.record(in(0, 10, 12), in(0, 1, 3));
  table.finish();
  CHECK(table.all().empty());
  CHECK(table.at(0, 11) == nullptr);
}

TEST_CASE("the use at a position covers its name, its end included") {
  UseTable table;
  table.startRecording();
  const SourceRange decl = in(0, 5, 8);
  table.record(in(1, 20, 23), decl);
  table.record(in(1, 10, 13), decl);
  table.record(in(0, 30, 31), in(0, 1, 2));
  table.finish();
  CHECK(table.at(1, 9) == nullptr);
  REQUIRE(table.at(1, 10) != nullptr);
  CHECK(table.at(1, 10)->use == in(1, 10, 13));
  CHECK(table.at(1, 13)->use == in(1, 10, 13));
  CHECK(table.at(1, 14) == nullptr);
  CHECK(table.at(1, 21)->decl == decl);
  CHECK(table.at(0, 30)->decl == in(0, 1, 2));
  // Another file's use at the same offset is not this file's.
  CHECK(table.at(2, 10) == nullptr);
  CHECK(table.at(0, 10) == nullptr);
}

TEST_CASE("a use recorded twice is kept once; empty ranges are not kept") {
  UseTable table;
  table.startRecording();
  table.record(in(0, 10, 12), in(0, 1, 3));
  table.record(in(0, 10, 12), in(0, 1, 3));
  table.record(in(0, 20, 22), in(0, 0, 0));  // a first-party declaration
  table.record(in(0, 30, 30), in(0, 1, 3));
  table.finish();
  CHECK(table.all().size() == 1);
  CHECK(table.at(0, 21) == nullptr);
}

TEST_CASE("the uses of a declaration, in source order") {
  UseTable table;
  table.startRecording();
  const SourceRange a = in(0, 1, 3);
  const SourceRange b = in(1, 1, 3);
  table.record(in(1, 40, 42), a);
  table.record(in(0, 50, 52), b);
  table.record(in(0, 10, 12), a);
  table.record(in(1, 5, 7), b);
  table.finish();
  std::vector<NameUse> uses = table.usesOf(a);
  REQUIRE(uses.size() == 2);
  CHECK(uses[0].use == in(0, 10, 12));
  CHECK(uses[1].use == in(1, 40, 42));
  CHECK(table.usesOf(b).size() == 2);
  CHECK(table.usesOf(in(2, 1, 3)).empty());
}
