#include <algorithm>
#include <cctype>
#include <string>

#include <fmt/format.h>

#include "tools/heraldc/catalogue.h"
#include "tools/heraldc/options.h"
#include "tools/heraldc/session.h"
#include "tools/heraldc/stdout_output.h"

namespace herald::driver {
namespace {

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::toupper(static_cast<unsigned char>(x)) ==
           std::toupper(static_cast<unsigned char>(y));
  });
}

}  // namespace

int runExplain(std::string_view code) {
  const std::vector<CatalogueEntry>& entries = catalogue();
  auto it = std::find_if(
      entries.begin(), entries.end(), [&](const CatalogueEntry& e) {
        return equalsIgnoringCase(e.code, code) || e.name == code;
      });
  if (it == entries.end()) {
    printError(fmt::format(
        "unknown diagnostic code '{}'; codes look like E0510 or W0530, and "
        "lang/diagnostics.md lists them all",
        code));
    return kExitUsage;
  }
  writeOut(it->text);
  return kExitOk;
}

}  // namespace herald::driver
