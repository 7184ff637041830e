// Registers the sqlite backend with the runtime when this library is
// linked. A static library's object is linked only when something refers to
// it: herald::runtime_sqlite's target asks the linker for the symbol below
// (--undefined), so a program that links the target gets the registration
// without naming anything of the backend.
#include <fmt/format.h>

#include "herald/backend_registry.hpp"
#include "herald/config.hpp"
#include "herald/sqlite_backend.hpp"

namespace herald {

SqliteBackendOptions sqlite_backend_options(const RuntimeConfig& config) {
  SqliteBackendOptions options;
  options.path = config.backend_sqlite_path;
  // load_config admits "full" and "normal" only.
  options.synchronous = config.backend_sqlite_synchronous == "normal"
                            ? SqliteSynchronous::normal
                            : SqliteSynchronous::full;
  options.dedup_window = config.dedup_window;
  return options;
}

namespace {

std::unique_ptr<Backend> make_from_config(const RuntimeConfig& config,
                                          bool /*concurrent*/) {
  return make_sqlite_backend(sqlite_backend_options(config));
}

}  // namespace
}  // namespace herald

extern "C" const bool herald_runtime_sqlite_registered =
    herald::register_backend(herald::BackendKind::sqlite,
                             &herald::make_from_config);
