// The diagnostic catalogue (lang/diagnostics.md), compiled into heraldc for
// `heraldc --explain`.
#pragma once

#include <string_view>
#include <vector>

namespace herald::driver {

struct CatalogueEntry {
  std::string_view code;  // "E0510"
  std::string_view name;  // "emit-outside-owner"
  std::string_view text;  // the Markdown section, heading included
};

// Every entry, in catalogue order. Generated at build time.
[[nodiscard]] const std::vector<CatalogueEntry>& catalogue();

// `heraldc --explain CODE`: prints the entry of CODE (or of its kebab name)
// on stdout and returns the exit code; an unknown code is a usage error.
[[nodiscard]] int runExplain(std::string_view code);

}  // namespace herald::driver
