// Opening a database: the tool refuses what is not there, not Herald's, too
// new, or in use, and holds the lock while it works.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "file_lock.hpp"
#include "herald/errors.hpp"
#include "herald/sqlite_operator.hpp"
#include "herald_db_fixture.hpp"
#include <unistd.h>

using herald::test_support::HeraldDbFixture;
using herald::test_support::TempDir;
using Database = herald::SqliteOperator;
using herald::op::Refusal;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("a missing database is refused and nothing is created") {
  TempDir dir;
  const std::string path = dir.file("absent.db");
  CHECK_THROWS_WITH_AS(Database{path}, (path + ": no such database").c_str(),
                       Refusal);
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK_FALSE(std::filesystem::exists(path + ".lock"));
}

TEST_CASE("a newer schema version is refused naming the file") {
  TempDir dir;
  const std::string path = dir.file("new.db");
  {
    HeraldDbFixture db(path);
    db.set_user_version(4);
  }
  CHECK_THROWS_WITH_AS(
      Database{path},
      (path + ": database schema version 4 is newer than this build's 3")
          .c_str(),
      Refusal);
}

TEST_CASE("a file that is not a Herald database is refused") {
  TempDir dir;
  SUBCASE("text") {
    const std::string path = dir.file("notes.txt");
    std::ofstream(path) << "these are not the tables you are looking for\n"
                        << std::string(4096, 'x');
    CHECK_THROWS_WITH_AS(
        Database{path},
        (path + ": not a Herald database (not an SQLite file)").c_str(),
        Refusal);
    CHECK_FALSE(std::filesystem::exists(path + ".lock"));
  }
  SUBCASE("empty") {
    const std::string path = dir.file("empty.db");
    std::ofstream(path).flush();
    CHECK_THROWS_WITH_AS(
        Database{path},
        (path + ": not a Herald database (schema version 0)").c_str(), Refusal);
  }
  SUBCASE("an SQLite database without the layout") {
    const std::string path = dir.file("other.db");
    {
      SQLite::Database other(path,
                             SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
      other.exec("CREATE TABLE t(x)");
    }
    CHECK_THROWS_WITH_AS(
        Database{path},
        (path + ": not a Herald database (schema version 0)").c_str(), Refusal);
  }
  SUBCASE("version 1 but a table missing") {
    const std::string path = dir.file("partial.db");
    {
      HeraldDbFixture db(path);
      db.sql().exec("DROP TABLE dead_message");
    }
    CHECK_THROWS_WITH_AS(
        Database{path},
        (path + ": not a Herald database (no table 'dead_message')").c_str(),
        Refusal);
  }
}

TEST_CASE("a held lock is refused with the holder's pid") {
  TempDir dir;
  const std::string path = dir.file("busy.db");
  HeraldDbFixture fixture(path);
  {
    herald::FileLock holder(path);
    CHECK(read_file(path + ".lock") == std::to_string(::getpid()) + "\n");
    CHECK_THROWS_WITH_AS(
        Database{path},
        ("database " + path + " is in use by another process (pid " +
         std::to_string(::getpid()) + ")")
            .c_str(),
        Refusal);
  }
  // Released: the tool opens it, holds the lock, and lets go when done.
  {
    Database db(path);
    CHECK(read_file(path + ".lock") == std::to_string(::getpid()) + "\n");
    CHECK_THROWS_AS(herald::FileLock{path}, herald::Error);
  }
  CHECK_NOTHROW(herald::FileLock{path});
}

TEST_CASE("a lock file without a pid still names the database") {
  TempDir dir;
  const std::string path = dir.file("busy.db");
  HeraldDbFixture fixture(path);
  herald::FileLock holder(path);
  std::ofstream(path + ".lock", std::ios::trunc).flush();
  CHECK_THROWS_WITH_AS(
      Database{path},
      ("database " + path + " is in use by another process (pid unknown)")
          .c_str(),
      Refusal);
}
