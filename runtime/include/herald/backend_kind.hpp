#pragma once
// The backends a runtime can be configured with (backend.kind). Each lives
// in a library of its own, a component of the CMake package, and registers
// its factory when that library is linked (herald/backend_registry.hpp):
// a program links only the backends it asks for.
#include <optional>
#include <string>
#include <string_view>

namespace herald {

enum class BackendKind {
  memory,  // in herald::runtime itself
  sqlite,  // herald::runtime_sqlite, component `sqlite`
  nats,    // herald::runtime_nats, component `nats` (a sqlite local store
           // on each node, NATS JetStream between nodes)
};

inline constexpr BackendKind kBackendKinds[] = {
    BackendKind::memory, BackendKind::sqlite, BackendKind::nats};

// The spelling of backend.kind: "memory", "sqlite", "nats".
std::string_view backend_kind_name(BackendKind kind);
// nullopt for a name that is no backend.
std::optional<BackendKind> parse_backend_kind(std::string_view name);
// "memory, sqlite, nats": every kind's name, for messages.
std::string backend_kind_names();
// The package component whose library provides the kind, as
// find_package(Herald COMPONENTS ...) and herald_generate(... BACKENDS ...)
// spell it; empty for memory, which the runtime library holds.
std::string_view backend_component(BackendKind kind);

}  // namespace herald
