// Writing files: back in place (`heraldc fmt --write`), new outputs
// (`heraldc graph -o`) and generated sources (`heraldc build`).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace herald::driver {

// Replaces the contents of the existing file `path` with `text` atomically:
// the text goes to a temporary file in the same directory, which is then
// renamed over `path`, so a reader sees the old or the new file, never a
// partial one. The file keeps its permissions. On failure returns the
// reason and leaves `path` as it was.
[[nodiscard]] std::optional<std::string> replaceFile(const std::string& path,
                                                     std::string_view text);

// Creates or truncates `path` and writes `text` to it. On failure returns
// the reason.
[[nodiscard]] std::optional<std::string> writeFile(const std::string& path,
                                                   std::string_view text);

// Makes `path` hold `text`, creating its parent directories. A file that
// already holds `text` is not touched, so its modification time stays and
// build systems do not recompile what depends on it. Otherwise the text is
// written to a temporary file beside `path` and renamed over it, so a
// reader (a compiler in a parallel build) never sees a partial file. On
// failure returns the reason and leaves `path` as it was.
[[nodiscard]] std::optional<std::string> updateFile(const std::string& path,
                                                    std::string_view text);

}  // namespace herald::driver
