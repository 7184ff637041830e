// A host program outside the Herald tree: it finds an installed Herald with
// find_package, generates C++ from counter.herald and calls the agent. The
// backend is configuration (HERALD_BACKEND_KIND, ...): memory unless set.
#include <fmt/format.h>

#include "demo/counter.h"
#include <herald/config.hpp>
#include <herald/deterministic_executor.hpp>
#include <herald/errors.hpp>
#include <herald/runtime.hpp>

int main() {
  try {
    herald::DeterministicExecutor executor(/*seed=*/1);
    herald::Runtime rt(herald::load_config({}), executor);
    rt.install(demo::counter::context());
    auto counter = demo::counter::Counter::at(rt, "visits");
    counter.bump(2);
    counter.bump(3);
    executor.run_until_idle();
    fmt::print("visits: {}\n", counter.value());
  } catch (const herald::Error& e) {
    fmt::print(stderr, "counter: error: {}\n", e.what());
    return 1;
  }
}
