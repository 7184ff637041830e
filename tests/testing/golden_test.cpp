// check_golden: compare, report the first difference, rewrite on request.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "herald/testing.hpp"

namespace herald::kit_test {

namespace {
std::filesystem::path scratch(const char* name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("herald_golden_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}
std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}
}  // namespace

TEST_CASE("golden: match, first difference, missing file, update mode") {
  const auto file = scratch("trace.json");
  std::filesystem::remove(file);
  ::unsetenv("HERALD_UPDATE_GOLDEN");
  auto missing = testing::check_golden(file, "a\nb\n");
  CHECK_FALSE(missing.matched);
  CHECK(missing.message.find("HERALD_UPDATE_GOLDEN=1 writes it") !=
        std::string::npos);

  ::setenv("HERALD_UPDATE_GOLDEN", "1", 1);
  auto written = testing::check_golden(file, "a\nb");
  ::unsetenv("HERALD_UPDATE_GOLDEN");
  CHECK(written.matched);
  CHECK(written.updated);
  CHECK(read(file) == "a\nb\n");

  CHECK(testing::check_golden(file, "a\nb").matched);
  auto differs = testing::check_golden(file, "a\nc\n");
  CHECK_FALSE(differs.matched);
  CHECK_FALSE(differs.updated);
  CHECK(differs.message.find(":2: differs") != std::string::npos);
  CHECK(differs.message.find("expected: b") != std::string::npos);
  CHECK(differs.message.find("actual:   c") != std::string::npos);
  auto longer = testing::check_golden(file, "a\nb\nc\n");
  CHECK(longer.message.find("expected: <end of file>") != std::string::npos);
  // Only "1" asks for an update.
  ::setenv("HERALD_UPDATE_GOLDEN", "yes", 1);
  CHECK_FALSE(testing::check_golden(file, "x").matched);
  ::unsetenv("HERALD_UPDATE_GOLDEN");
  std::filesystem::remove_all(file.parent_path());
}

}  // namespace herald::kit_test
