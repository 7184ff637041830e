#include "herald/log.hpp"

#include <cstdio>
#include <stdexcept>

#include "herald/errors.hpp"

namespace herald {

std::string_view to_string(LogLevel level) {
  switch (level) {
    case LogLevel::debug:
      return "debug";
    case LogLevel::info:
      return "info";
    case LogLevel::warn:
      return "warn";
    case LogLevel::error:
      return "error";
    case LogLevel::off:
      return "off";
  }
  return "off";
}

LogLevel parse_log_level(std::string_view text) {
  for (LogLevel l : {LogLevel::debug, LogLevel::info, LogLevel::warn,
                     LogLevel::error, LogLevel::off}) {
    if (to_string(l) == text) return l;
  }
  throw std::invalid_argument("unknown log level '" + std::string(text) + "'");
}

void StderrLogSink::write(const nlohmann::json& line) {
  // A field that is not valid UTF-8 (the runtime's own fields are made
  // valid where they enter; a host's may not be) is written with U+FFFD
  // instead of throwing.
  const std::string text =
      line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
      "\n";
  std::lock_guard lock(mutex_);
  std::fwrite(text.data(), 1, text.size(), stderr);
}

void MemoryLogSink::write(const nlohmann::json& line) {
  std::lock_guard lock(mutex_);
  lines_.push_back(line);
}

std::vector<nlohmann::json> MemoryLogSink::lines() const {
  std::lock_guard lock(mutex_);
  return lines_;
}

std::vector<nlohmann::json> MemoryLogSink::lines(std::string_view event) const {
  std::lock_guard lock(mutex_);
  std::vector<nlohmann::json> out;
  for (const auto& l : lines_) {
    if (l.contains("event") && l["event"] == event) out.push_back(l);
  }
  return out;
}

void RuntimeLog::write(LogLevel level, nlohmann::json fields,
                       std::string_view timestamp) noexcept {
  if (!enabled(level)) return;
  try {
    fields["level"] = std::string(to_string(level));
    fields["ts"] = std::string(timestamp);
    sink_.write(fields);
  } catch (const std::exception& e) {
    // The sink refused the line: say so in a line of the runtime's own
    // fields, which any sink can write.
    try {
      sink_.write({{"event", "log.write_failed"},
                   {"level", std::string(to_string(LogLevel::error))},
                   {"ts", std::string(timestamp)},
                   {"message", fault_text(e.what())}});
    } catch (...) {  // NOLINT(bugprone-empty-catch): nowhere left to report
    }
  } catch (...) {  // NOLINT(bugprone-empty-catch): logging never throws out
                   // of an actor
  }
}

}  // namespace herald
