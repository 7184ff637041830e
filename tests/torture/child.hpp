// A child process of the torture harness: started with its stdin and
// its stdout and stderr on pipes, read line by line, killed, waited for with a
// deadline.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <sys/types.h>

namespace torture {

class Child {
 public:
  explicit Child(const std::vector<std::string>& args);
  ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  // Reads until a complete line starting with `tag` arrives (true) or the
  // output ends or `timeout` passes (false).
  bool await_line(const std::string& tag, std::chrono::milliseconds timeout);
  // Writes one byte to its stdin (a --hold process goes on).
  void release();
  void kill_now();
  // Waits for the exit, reading its output; kills it after `timeout`.
  // Returns false if it had to be killed for running too long.
  bool wait(std::chrono::milliseconds timeout);

  bool killed_by_signal() const;
  bool exited(int code) const;
  std::string status_text() const;
  const std::string& output() const { return out_; }
  // Every complete line of its output that starts with `tag` + " ".
  std::vector<std::string> lines(const std::string& tag) const;

 private:
  bool pump(std::chrono::milliseconds timeout);

  pid_t pid_ = -1;
  int in_ = -1;  // write end of its stdin
  int out_fd_ = -1;
  std::string out_;
  int status_ = 0;
  bool reaped_ = false;
};

}  // namespace torture
