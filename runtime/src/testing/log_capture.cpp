// LogCapture: the runtime's log lines kept in memory and read back with
// their fields typed.
#include <fmt/format.h>

#include "herald/errors.hpp"
#include "herald/testing.hpp"

namespace herald::testing {
namespace {

std::optional<std::string> text(const nlohmann::json& line,
                                std::string_view key) {
  auto it = line.find(key);
  if (it == line.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) {
    throw Error(fmt::format("log line field '{}' is not a string: {}", key,
                            line.dump()));
  }
  return it->get<std::string>();
}

std::optional<std::int64_t> integer(const nlohmann::json& line,
                                    std::string_view key) {
  auto it = line.find(key);
  if (it == line.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer()) {
    throw Error(fmt::format("log line field '{}' is not an integer: {}", key,
                            line.dump()));
  }
  return it->get<std::int64_t>();
}

std::optional<EventId> id(const nlohmann::json& line, std::string_view key) {
  const auto value = text(line, key);
  if (!value) return std::nullopt;
  auto parsed = EventId::parse(*value);
  if (!parsed) {
    throw Error(
        fmt::format("log line field '{}' is not an id: {}", key, line.dump()));
  }
  return parsed;
}

std::string required(const nlohmann::json& line, std::string_view key) {
  auto value = text(line, key);
  if (!value) {
    throw Error(
        fmt::format("log line has no field '{}': {}", key, line.dump()));
  }
  return *value;
}

}  // namespace

LogLine LogLine::parse(const nlohmann::json& line) {
  if (!line.is_object())
    throw Error(fmt::format("log line is not an object: {}", line.dump()));
  LogLine out;
  out.event = required(line, "event");
  try {
    out.level = parse_log_level(required(line, "level"));
  } catch (const std::invalid_argument& e) {
    throw Error(fmt::format("log line level: {}: {}", e.what(), line.dump()));
  }
  out.message = text(line, "message").value_or("");
  out.ts = text(line, "ts").value_or("");
  out.node = text(line, "node").value_or("");
  out.handler = text(line, "handler");
  out.subscription = text(line, "subscription");
  out.event_type = text(line, "eventType");
  out.event_id = id(line, "eventId");
  out.correlation_id = id(line, "correlationId");
  out.causation_id = id(line, "causationId");
  out.message_id = id(line, "messageId");
  out.agent = text(line, "agent");
  out.attempt = integer(line, "attempt");
  out.next_attempt = integer(line, "nextAttempt");
  if (auto delay = text(line, "delay")) {
    try {
      out.delay = parse_duration(*delay);
    } catch (const std::exception& e) {
      throw Error(
          fmt::format("log line field 'delay': {}: {}", e.what(), line.dump()));
    }
  }
  out.fields = line;
  return out;
}

void LogCapture::write(const nlohmann::json& line) { sink_.write(line); }

std::vector<LogLine> LogCapture::lines() const {
  std::vector<LogLine> out;
  for (const nlohmann::json& line : sink_.lines())
    out.push_back(LogLine::parse(line));
  return out;
}

std::vector<LogLine> LogCapture::lines(std::string_view event) const {
  std::vector<LogLine> out;
  for (const nlohmann::json& line : sink_.lines(event))
    out.push_back(LogLine::parse(line));
  return out;
}

bool is_fault_event(std::string_view event) {
  return event == "handler.fault" || event == "delivery.fault" ||
         event == "delivery.store_fault" || event == "delivery.dead_letter" ||
         event == "message.fault" || event == "message.dead_letter" ||
         event == "publish.fault" || event == "tap.fault";
}

}  // namespace herald::testing
