#include "tools/heraldc/schema_lock.h"

#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "registry/lock.h"
#include "registry/lock_source.h"
#include "tools/heraldc/display_paths.h"
#include "tools/heraldc/inputs.h"
#include "tools/heraldc/outputs.h"

namespace herald::driver {

namespace fs = std::filesystem;

namespace {

// The directory an input stands for: itself for a directory, its parent
// for a file.
fs::path inputDirectory(const std::string& input) {
  fs::path path = fs::absolute(fs::path(input)).lexically_normal();
  std::error_code ec;
  if (fs::is_directory(path, ec)) return path;
  return path.parent_path();
}

std::string displayName(const fs::path& path) {
  std::error_code ec;
  fs::path relative = fs::relative(path, fs::current_path(ec), ec);
  if (ec || relative.empty() || *relative.begin() == "..")
    return path.generic_string();
  return relative.generic_string();
}

}  // namespace

fs::path locateSchemaLock(const std::vector<std::string>& inputs,
                          const std::string& explicitPath) {
  if (!explicitPath.empty()) return fs::path(explicitPath);
  std::optional<fs::path> common;
  for (const std::string& input : inputs) {
    if (input == kStdinPath) continue;
    fs::path dir = inputDirectory(input);
    common = common ? commonDirectory(*common, dir) : dir;
  }
  std::error_code ec;
  fs::path start = common ? *common : fs::current_path(ec);
  for (fs::path dir = start;; dir = dir.parent_path()) {
    fs::path candidate = dir / registry::kLockFileName;
    if (fs::exists(candidate, ec)) return candidate;
    if (dir == dir.parent_path() || dir.empty()) break;
  }
  return start / registry::kLockFileName;
}

std::optional<SchemaLockRun> runSchemaLock(
    Session& session, const std::vector<std::string>& inputs,
    const SchemaLockOptions& options, check::Program& program) {
  SchemaLockRun run;
  run.path = locateSchemaLock(inputs, options.path);
  std::string name = displayName(run.path);
  registry::RegistryOptions registryOptions;
  registryOptions.locked = options.locked;
  registry::Lock lock;
  std::error_code ec;
  if (fs::exists(run.path, ec)) {
    std::ifstream in(run.path, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in || fs::is_directory(run.path, ec)) {
      FileId id = session.sources().addFile(name, "");
      session.diags().report<diag::SchemaRegistryCorrupt>(
          SourceRange{id, 0, 0}, name, "the file cannot be read");
      return std::nullopt;
    }
    run.text = text.str();
    FileId id = session.sources().addFile(name, run.text);
    const SourceFile& file = session.sources().file(id);
    std::optional<registry::Lock> read =
        registry::readLockSource(file, session.diags());
    if (!read) return std::nullopt;
    lock = std::move(*read);
    registryOptions.lockSource = &file;
  }
  run.result =
      registry::runRegistry(program, lock, registryOptions, session.diags());
  return run;
}

void writeSchemaLock(Session& session, const SchemaLockRun& run) {
  std::string text = registry::printLock(run.result.lock);
  if (text == run.text) return;
  if (std::optional<std::string> error = updateFile(run.path.string(), text))
    session.fail(fmt::format("cannot write schema lock '{}': {}",
                             run.path.string(), *error));
}

}  // namespace herald::driver
