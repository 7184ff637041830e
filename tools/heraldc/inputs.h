// Turns the paths given on the command line into source files: directories
// are searched recursively for `*.herald`, every file is read whole, and `-`
// is standard input.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace herald::driver {

struct InputFile {
  // As the user spelled it, or the directory they gave joined with the
  // path below it, so relative names stay relative.
  std::string name;
  std::string text;
};

struct Inputs {
  std::vector<InputFile> files;
  // One message per unreadable path, naming it.
  std::vector<std::string> errors;
};

// `-` on the command line: standard input, named `<stdin>` in diagnostics.
inline constexpr std::string_view kStdinPath = "-";
inline constexpr std::string_view kStdinName = "<stdin>";

// Files appear in argument order; the files found under one directory are
// sorted by path. A file reached twice (given twice, or also found inside a
// directory given) is read once.
[[nodiscard]] Inputs readInputs(const std::vector<std::string>& paths);

}  // namespace herald::driver
