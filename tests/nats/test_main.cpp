// The nats tests start servers of their own: without nats-server installed
// they cannot run, and say so with ctest's skip code instead of passing.
// Run as `herald_nats_tests --herald-node ROLE ...`, the binary is one of
// the tests' node processes (node_process.hpp).
#define DOCTEST_CONFIG_IMPLEMENT
#include <cstdio>
#include <cstring>

#include <doctest/doctest.h>

#include "nats_server.hpp"
#include "node_process.hpp"

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], herald::test::kNodeFlag) == 0)
    return herald::test::run_node(argc, argv);
  if (herald::test::find_nats_server().empty()) {
    std::puts(
        "nats tests skipped: nats-server is not installed (Debian: apt-get "
        "install nats-server; tools/dev/test-all installs it)");
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
