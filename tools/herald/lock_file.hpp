#pragma once
// The exclusive lock on `<database>.lock` that a runtime or the herald tool
// holds while it uses the database: flock(LOCK_EX | LOCK_NB) on the file,
// whose content is the holder's decimal pid and a newline.
#include <string>

namespace herald::tool {

class LockFile {
 public:
  // Takes the lock on `lock_path`, creating the file if needed, and writes
  // this process's pid into it. Throws Refusal naming `database_path` and
  // the holder's pid when another process holds it.
  LockFile(const std::string& database_path, const std::string& lock_path);
  ~LockFile();
  LockFile(const LockFile&) = delete;
  LockFile& operator=(const LockFile&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace herald::tool
