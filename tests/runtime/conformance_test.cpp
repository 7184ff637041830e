// The conformance suite (conformance_cases.hpp) on the in-process
// backends: memory, and sqlite (a restart reopens the database file).
#include <doctest/doctest.h>

#include "herald/backend_kind.hpp"

namespace herald::test {
namespace {

struct OnMemory {
  static constexpr BackendKind kind = BackendKind::memory;
};
struct OnSqlite {
  static constexpr BackendKind kind = BackendKind::sqlite;
};

}  // namespace
}  // namespace herald::test

TYPE_TO_STRING_AS("memory", herald::test::OnMemory);
TYPE_TO_STRING_AS("sqlite", herald::test::OnSqlite);

#define HERALD_CONFORMANCE_BACKENDS \
  herald::test::OnMemory, herald::test::OnSqlite
#include "conformance_cases.hpp"
