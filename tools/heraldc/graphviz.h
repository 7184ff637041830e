// Rendering DOT through Graphviz's `dot` program (`heraldc graph
// --format=svg`): the only place heraldc starts another process.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace herald::driver {

// The path of the first executable `program` in the directories of $PATH
// (llvm::sys::findProgramByName).
[[nodiscard]] std::optional<std::string> findOnPath(std::string_view program);

struct RenderResult {
  std::string output;  // the rendered document
  std::string error;   // empty on success
};

// Runs `dotPath -T<format>` on `dot` (through temporary files, so neither
// side can block on a full pipe); Graphviz's own messages go to stderr.
[[nodiscard]] RenderResult renderWithDot(const std::string& dotPath,
                                         std::string_view dot,
                                         std::string_view format);

}  // namespace herald::driver
