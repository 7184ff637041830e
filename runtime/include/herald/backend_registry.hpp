#pragma once
// Backends by kind. The memory backend is always there; a backend in a
// library of its own (sqlite) registers its factory from a static
// initialiser of that library, which the library's CMake target keeps in
// the link (see runtime/CMakeLists.txt). Runtime makes the backend that
// backend.kind names from here, so nothing in the runtime's core refers to
// a backend library.
#include <memory>

#include "herald/backend_kind.hpp"

namespace herald {

class Backend;
struct RuntimeConfig;

// `concurrent`: whether the executor runs work on several threads.
using BackendFactory = std::unique_ptr<Backend> (*)(const RuntimeConfig& config,
                                                    bool concurrent);

// Registers the factory of `kind`; returns true, so that a library can
// register from the initialiser of a constant. Throws RegistrationError if
// the kind has a factory already.
bool register_backend(BackendKind kind, BackendFactory factory);

// The backend config.backend_kind names. Throws ConfigError naming the
// package component to link when the program did not link the backend's
// library.
std::unique_ptr<Backend> make_backend(const RuntimeConfig& config,
                                      bool concurrent);

}  // namespace herald
