// Turns the paths given on the command line into source files: directories
// are searched recursively for `*.herald`, every file is read whole.
#pragma once

#include <string>
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

// Files appear in argument order; the files found under one directory are
// sorted by path. A file reached twice (given twice, or also found inside a
// directory given) is read once.
[[nodiscard]] Inputs readInputs(const std::vector<std::string>& paths);

}  // namespace herald::driver
