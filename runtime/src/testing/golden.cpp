// Golden files: compare a trace with the checked-in expectation, or with
// HERALD_UPDATE_GOLDEN=1 rewrite the expectation.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "herald/testing.hpp"

namespace herald::testing {
namespace {

bool update_requested() {
  const char* value = std::getenv("HERALD_UPDATE_GOLDEN");
  return value != nullptr && std::string_view(value) == "1";
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.emplace_back(text.substr(start));
      break;
    }
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace

GoldenResult check_golden(const std::filesystem::path& path,
                          std::string_view actual) {
  // A golden file ends with a newline, as an editor would save it.
  std::string content(actual);
  if (content.empty() || content.back() != '\n') content.push_back('\n');
  GoldenResult result;
  if (update_requested()) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
    out.close();
    if (!out) {
      result.message =
          fmt::format("cannot write golden file {}", path.string());
      return result;
    }
    result.matched = true;
    result.updated = true;
    result.message = fmt::format("wrote golden file {}", path.string());
    return result;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    result.message = fmt::format(
        "cannot read golden file {} (HERALD_UPDATE_GOLDEN=1 writes it)",
        path.string());
    return result;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string expected = buffer.str();
  if (expected == content) {
    result.matched = true;
    return result;
  }
  const auto want = split_lines(expected);
  const auto got = split_lines(content);
  std::size_t line = 0;
  while (line < want.size() && line < got.size() && want[line] == got[line])
    ++line;
  result.message = fmt::format(
      "{}:{}: differs from the run (HERALD_UPDATE_GOLDEN=1 rewrites it after "
      "review)\n  expected: {}\n  actual:   {}",
      path.string(), line + 1,
      line < want.size() ? want[line] : std::string("<end of file>"),
      line < got.size() ? got[line] : std::string("<end of output>"));
  return result;
}

}  // namespace herald::testing
