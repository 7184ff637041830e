#pragma once
// A database file of its own in the temporary directory, removed (with its
// WAL, shared-memory and lock files, and the log of a node process that
// ran on it) at the end.
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <unistd.h>

namespace herald::test {

struct TempDatabase {
  TempDatabase() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "herald-test-XXXXXX")
            .string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) throw std::runtime_error("mkstemp failed");
    ::close(fd);
    // The name stays reserved by its own file; SQLite creates `<name>.db`.
    path = pattern + ".db";
    reserved_ = pattern;
  }
  ~TempDatabase() {
    for (const char* suffix : {"", "-wal", "-shm", ".lock", ".log"})
      std::remove((path + suffix).c_str());
    std::remove(reserved_.c_str());
  }
  TempDatabase(const TempDatabase&) = delete;
  TempDatabase& operator=(const TempDatabase&) = delete;
  std::string path;

 private:
  std::string reserved_;
};

}  // namespace herald::test
