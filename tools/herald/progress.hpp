#pragma once
// A one-line progress bar for long operations, drawn on a terminal only.
//
// Debian 12 packages no C++ progress-bar library, so this is a small one:
// one line redrawn with '\r', at most about ten redraws a second, and the
// final state drawn once more by finish(). Output that is not a terminal
// (a pipe, a file, a test) gets nothing, so scripts see only the result.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>

#include "herald/sqlite_operator.hpp"

namespace herald::tool {

// What the operator API (herald/sqlite_operator.hpp) reports of its long
// operations, drawn.
class Progress final : public op::ProgressSink {
 public:
  // Draws on stderr when stderr is a terminal; otherwise draws nothing.
  static Progress on_stderr();
  // Draws nothing.
  static Progress quiet();
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  // Draws on `out`, reading the time from `now` (tests use a temporary file
  // and their own clock).
  static Progress on(std::FILE* out,
                     Clock now = std::chrono::steady_clock::now);

  // A new task of `total` steps, labelled `label`.
  void start(std::string label, std::int64_t total) override;
  void advance(std::int64_t steps) override;
  // Draws the final state and ends the line.
  void finish() override;

 private:
  Progress(std::FILE* out, Clock now) : out_(out), now_(std::move(now)) {}
  void draw();

  std::FILE* out_;  // null: draw nothing
  Clock now_;
  std::string label_;
  std::int64_t total_ = 0;
  std::int64_t done_ = 0;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace herald::tool
