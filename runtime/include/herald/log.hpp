#pragma once
// Structured log lines: one JSON object per line, with the fields that let an
// operator find the event again (eventId, subscription, attempt, handler).
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "herald/log_fwd.hpp"

namespace herald {

enum class LogLevel { debug, info, warn, error, off };

std::string_view to_string(LogLevel level);
// Throws std::invalid_argument.
LogLevel parse_log_level(std::string_view text);

class LogSink {
 public:
  virtual ~LogSink() = default;
  // `line` holds at least "level", "event" and "message". Called from any
  // thread.
  virtual void write(const nlohmann::json& line) = 0;
};

// Writes each line to stderr.
class StderrLogSink final : public LogSink {
 public:
  void write(const nlohmann::json& line) override;

 private:
  std::mutex mutex_;
};

// Keeps lines in memory; for tests and for hosts that forward them.
class MemoryLogSink final : public LogSink {
 public:
  void write(const nlohmann::json& line) override;
  std::vector<nlohmann::json> lines() const;
  // Lines whose "event" field equals `event`.
  std::vector<nlohmann::json> lines(std::string_view event) const;

 private:
  mutable std::mutex mutex_;
  std::vector<nlohmann::json> lines_;
};

class RuntimeLog {
 public:
  RuntimeLog(LogSink& sink, LogLevel threshold)
      : sink_(sink), threshold_(threshold) {}
  bool enabled(LogLevel level) const {
    return level != LogLevel::off && level >= threshold_;
  }
  // Adds "level" and "ts" to `fields` and writes it if the level is enabled.
  // Never throws: a sink that fails gets a "log.write_failed" line instead
  // (itself best effort), so a log line cannot fail the work it reports.
  void write(LogLevel level, nlohmann::json fields,
             std::string_view timestamp) noexcept;

 private:
  LogSink& sink_;
  LogLevel threshold_;
};

}  // namespace herald
