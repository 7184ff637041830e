// herald_tool_sample_db PATH: writes the tests' sample database (see
// sample_database.cpp) to PATH, replacing any file there; the command-line
// tests run `herald` over it.
#include <cstdio>
#include <exception>
#include <filesystem>

#include "sample_database.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: herald_tool_sample_db PATH\n");
    return 2;
  }
  try {
    const std::filesystem::path path = argv[1];
    for (const char* suffix : {"", "-wal", "-shm", ".lock"})
      std::filesystem::remove(path.string() + suffix);
    herald::test_support::HeraldDbFixture db(path.string());
    herald::test_support::fill_sample(db);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "herald_tool_sample_db: %s\n", e.what());
    return 1;
  }
  return 0;
}
