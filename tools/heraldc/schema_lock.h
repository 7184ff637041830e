// herald.schema.lock on disk: where it is, reading it into the session (so
// diagnostics can point at its lines), running the registry phase on a
// checked program, and writing the lock back after a successful build.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "ir/program.h"
#include "registry/registry.h"
#include "tools/heraldc/session.h"

namespace herald::driver {

struct SchemaLockOptions {
  std::string path;  // `--schema-lock PATH`; empty: located from the inputs
  bool locked = false;
};

// The lock a build of `inputs` uses: `explicitPath` when given; else the
// first `herald.schema.lock` found walking up from the deepest directory
// holding every input (the current directory for standard input); else a
// new file in that deepest directory.
[[nodiscard]] std::filesystem::path locateSchemaLock(
    const std::vector<std::string>& inputs, const std::string& explicitPath);

struct SchemaLockRun {
  std::filesystem::path path;
  std::string text;  // as read; empty when the file did not exist
  registry::RegistryResult result;
};

// Reads the lock (a missing file is an empty lock; an unreadable or
// malformed one is reported as schema-registry-corrupt at its line) and
// runs the registry on `program`, which computes every event's version
// into the IR. Returns nothing when the lock could not be read.
[[nodiscard]] std::optional<SchemaLockRun> runSchemaLock(
    Session& session, const std::vector<std::string>& inputs,
    const SchemaLockOptions& options, check::Program& program);

// Writes the lock `run` computed when its text differs from the file's;
// on failure reports it through the session.
void writeSchemaLock(Session& session, const SchemaLockRun& run);

}  // namespace herald::driver
