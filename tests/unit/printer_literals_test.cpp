// The formatter prints number literals as written: digit separators and a
// float's trailing zeros are the author's, not noise to normalise away.
#include <string>

#include <doctest/doctest.h>

#include "frontend/ast_print.h"
#include "frontend/diagnostic.h"
#include "frontend/parser.h"

namespace {

std::string formatted(const std::string& text) {
  herald::SourceFile source(0, "input.herald", text);
  herald::DiagnosticEngine diags;
  herald::ParseResult result = herald::parse(source, diags);
  REQUIRE_FALSE(diags.hasErrors());
  REQUIRE(result.file != nullptr);
  return herald::printFile(*result.file);
}

TEST_CASE("integer, float and duration literals keep their spelling") {
  const std::string text =
      "context shop\n"
      "\n"
      "fn f() -> Int {\n"
      "  let big = 21_000\n"
      "  let small = -1_0\n"
      "  let rate = 1_000.50\n"
      "  let wait = 1_000.ms\n"
      "  big\n"
      "}\n";
  CHECK(formatted(text) == text);
}

TEST_CASE(
    "via schema versions keep their spelling, and a space after '-' "
    "goes") {
  const std::string out = formatted(
      "context shop\n"
      "event Paid = { cents: Int }\n"
      "service S from Events(Paid) via schema(1_0..2_0) {\n"
      "  on event(e: Paid) {}\n"
      "}\n"
      "service T from Events(Paid) via schema(..- 0_1) {\n"
      "  on event(e: Paid) {}\n"
      "}\n");
  CHECK(out.find("via schema(1_0..2_0)") != std::string::npos);
  CHECK(out.find("via schema(..-0_1)") != std::string::npos);
}

}  // namespace
