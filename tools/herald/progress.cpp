#include "tools/herald/progress.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include <unistd.h>

namespace herald::tool {
namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
constexpr std::int64_t kBarWidth = 30;

}  // namespace

Progress Progress::on_stderr() {
  return Progress(::isatty(STDERR_FILENO) == 1 ? stderr : nullptr,
                  std::chrono::steady_clock::now);
}

Progress Progress::quiet() {
  return Progress(nullptr, std::chrono::steady_clock::now);
}

Progress Progress::on(std::FILE* out, Clock now) {
  return Progress(out, std::move(now));
}

void Progress::start(std::string label, std::int64_t total) {
  label_ = std::move(label);
  total_ = std::max<std::int64_t>(total, 0);
  done_ = 0;
  drawn_ = false;
}

void Progress::advance(std::int64_t steps) {
  done_ = std::min(done_ + steps, total_);
  if (out_ == nullptr) return;
  const auto now = now_();
  if (drawn_ && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  draw();
}

void Progress::finish() {
  if (out_ == nullptr) return;
  draw();
  fmt::print(out_, "\n");
  std::fflush(out_);
  drawn_ = false;
}

void Progress::draw() {
  const std::int64_t filled =
      total_ == 0 ? kBarWidth : done_ * kBarWidth / total_;
  const std::int64_t percent = total_ == 0 ? 100 : done_ * 100 / total_;
  fmt::print(out_, "\r{} [{}{}] {}/{} {:3}%", label_,
             std::string(static_cast<std::size_t>(filled), '#'),
             std::string(static_cast<std::size_t>(kBarWidth - filled), ' '),
             done_, total_, percent);
  std::fflush(out_);
  drawn_ = true;
}

}  // namespace herald::tool
