// The nats tests start servers of their own: without nats-server installed
// they cannot run, and say so with ctest's skip code instead of passing.
#define DOCTEST_CONFIG_IMPLEMENT
#include <cstdio>

#include <doctest/doctest.h>

#include "nats_server.hpp"

int main(int argc, char** argv) {
  if (herald::test::find_nats_server().empty()) {
    std::puts(
        "nats tests skipped: nats-server is not installed (Debian: apt-get "
        "install nats-server; tools/dev/test-all installs it)");
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
