#include "tool_run.hpp"

#include <cstdio>
#include <sstream>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <sys/wait.h>

namespace herald::test {

ToolRun run_herald(const std::string& args) {
  const std::string command = fmt::format("'{}' {}", HERALD_TOOL_PATH, args);
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  ToolRun run;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0)
    run.out.append(buffer, n);
  const int status = ::pclose(pipe);
  if (WIFEXITED(status)) run.exit = WEXITSTATUS(status);
  return run;
}

std::vector<std::string> table_row(const std::string& text,
                                   const std::string& section,
                                   const std::string& first) {
  const std::size_t at = text.find("\n" + section);
  if (at == std::string::npos) return {};
  std::istringstream lines(text.substr(at));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind(first + " ", 0) != 0) continue;
    std::istringstream cells(line);
    std::vector<std::string> out;
    std::string cell;
    while (cells >> cell) out.push_back(cell);
    return out;
  }
  return {};
}

}  // namespace herald::test
