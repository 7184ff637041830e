#include "herald/backend_registry.hpp"

#include <array>

#include <fmt/format.h>

#include "herald/backend.hpp"
#include "herald/config.hpp"
#include "herald/errors.hpp"

namespace herald {
namespace {

std::unique_ptr<Backend> make_memory(const RuntimeConfig& config,
                                     bool concurrent) {
  return make_memory_backend(
      MemoryBackendOptions{concurrent, config.dedup_window, {}});
}

constexpr std::size_t kKinds = 3;

std::size_t slot(BackendKind kind) {
  switch (kind) {
    case BackendKind::memory:
      return 0;
    case BackendKind::sqlite:
      return 1;
    case BackendKind::nats:
      return 2;
  }
  return kKinds;
}

// Constant-initialised, so a library's static initialiser may register
// into it whatever the order of initialisation across libraries.
constinit std::array<BackendFactory, kKinds> factories = {&make_memory, nullptr,
                                                          nullptr};

}  // namespace

bool register_backend(BackendKind kind, BackendFactory factory) {
  BackendFactory& entry = factories.at(slot(kind));
  if (entry != nullptr) {
    throw RegistrationError(fmt::format("backend '{}' is registered twice",
                                        backend_kind_name(kind)));
  }
  entry = factory;
  return true;
}

std::unique_ptr<Backend> make_backend(const RuntimeConfig& config,
                                      bool concurrent) {
  const BackendFactory factory = factories.at(slot(config.backend_kind));
  if (factory == nullptr) {
    const std::string_view component = backend_component(config.backend_kind);
    throw ConfigError(fmt::format(
        "backend.kind = {} needs the {} backend, which this program does not "
        "link: link Herald::runtime_{} (find_package(Herald CONFIG REQUIRED "
        "COMPONENTS {}), or herald_generate(... BACKENDS {}))",
        backend_kind_name(config.backend_kind),
        backend_kind_name(config.backend_kind), component, component,
        component));
  }
  return factory(config, concurrent);
}

}  // namespace herald
