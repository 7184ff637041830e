// A line diff for golden-test failures: unified-style hunks, shortened so a
// failing run stays readable.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace herald::golden {

// Hunks of `- expected` / `+ actual` lines with `context` lines around each
// change; at most `maxLines` lines of output, then a note of what was cut.
[[nodiscard]] std::string lineDiff(std::string_view expected,
                                   std::string_view actual,
                                   std::size_t context = 2,
                                   std::size_t maxLines = 60);

}  // namespace herald::golden
