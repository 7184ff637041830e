// One run of the driver: the sources it read, the one diagnostics engine
// every phase reports to, and how the diagnostics leave the process.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frontend/diagnostic.h"
#include "frontend/diagnostic_render.h"
#include "frontend/source.h"
#include "tools/heraldc/options.h"

namespace herald::driver {

// `heraldc: error: <message>` on stderr, for problems that are not
// diagnostics about the sources (usage, I/O).
void printError(std::string_view message);

// --color=auto colors when stderr is a terminal that is not `dumb` and the
// user has not asked for no color (NO_COLOR set and non-empty).
[[nodiscard]] bool colorEnabled(ColorMode mode);

class Session {
 public:
  explicit Session(GlobalOptions options);

  // Adds every input to the source manager. On any I/O problem reports one
  // message per path (see fail()), renders them and returns false; nothing
  // is added then.
  [[nodiscard]] bool load(const std::vector<std::string>& paths);

  [[nodiscard]] SourceManager& sources() { return sources_; }
  [[nodiscard]] DiagnosticEngine& diags() { return diags_; }

  // A problem that is not about the sources (an input or output that
  // cannot be read or written): printed at once as `heraldc: error:` in
  // text mode, an object of the array in JSON mode. Makes finish() return
  // kExitUsage.
  void fail(std::string message);
  [[nodiscard]] bool failed() const { return failed_; }

  // Sorts and de-duplicates everything reported, renders it once (text on
  // stderr, or one JSON array on stdout) and returns the exit code.
  [[nodiscard]] int finish();

 private:
  GlobalOptions options_;
  SourceManager sources_;
  DiagnosticEngine diags_;
  std::vector<RunMessage> run_;
  bool failed_ = false;
};

}  // namespace herald::driver
