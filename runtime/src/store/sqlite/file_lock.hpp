#pragma once
// An exclusive advisory lock on a lock file, held for the owner's lifetime:
// flock(LOCK_EX | LOCK_NB), the file holding the holder's decimal pid and a
// newline. Another process that tries it is refused with the holder's pid.
// The one lock of a database (runtime/docs/sqlite-schema.md): the backend
// and the operator API (SqliteOperator) both take it.
#include <string>

namespace herald {

class FileLock {
 public:
  // Locks `<real path of database_path>.lock`: the path with every
  // symbolic link resolved, so that two names of one database (a symlink
  // and its target, a relative and an absolute path) take one lock. Throws
  // herald::Error "database <database_path> is in use by another process
  // (pid N)" if another process holds it, or if it cannot be opened.
  explicit FileLock(const std::string& database_path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace herald
