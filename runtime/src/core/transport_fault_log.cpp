#include "transport_fault_log.hpp"

#include <chrono>

#include "herald/time.hpp"

namespace herald {
namespace {

struct Line {
  LogLevel level;
  const char* event;
  const char* message;
};

Line line_of(TransportFaultKind kind) {
  switch (kind) {
    case TransportFaultKind::relay_failed:
      return {LogLevel::error, "transport.relay_failed",
              "publishing to the broker failed; retried from the stream's "
              "last message"};
    case TransportFaultKind::ingest_failed:
      return {LogLevel::error, "transport.ingest_failed",
              "receiving from the broker failed; fetched again"};
    case TransportFaultKind::message_rejected:
      return {LogLevel::error, "transport.message_rejected",
              "a stream message is no Herald message: terminated on its "
              "consumer, left in the stream"};
    case TransportFaultKind::recovered:
      return {LogLevel::info, "transport.recovered", "the broker works again"};
  }
  return {LogLevel::error, "transport.fault", "a transport fault"};
}

}  // namespace

void TransportFaultLog::report(const TransportFault& fault) noexcept {
  try {
    const Line line = line_of(fault.kind);
    nlohmann::json fields = {
        {"event", line.event}, {"message", line.message}, {"node", node_}};
    if (!fault.context.empty()) fields["context"] = fault.context;
    if (!fault.stream.empty()) fields["stream"] = fault.stream;
    if (!fault.consumer.empty()) fields["consumer"] = fault.consumer;
    if (fault.stream_sequence != 0)
      fields["streamSequence"] = fault.stream_sequence;
    if (!fault.error.empty()) fields["error"] = fault.error;
    if (fault.failures != 0) fields["failures"] = fault.failures;
    if (fault.failing_for != Duration{})
      fields["failingForMs"] =
          std::chrono::duration_cast<std::chrono::milliseconds>(
              fault.failing_for)
              .count();
    const Instant now(std::chrono::duration_cast<Duration>(
        std::chrono::system_clock::now().time_since_epoch()));
    std::lock_guard lock(mutex_);
    if (log_ == nullptr || !log_->enabled(line.level)) return;
    log_->write(line.level, std::move(fields), format_instant(now));
  } catch (...) {
    // The line could not be built: the failure still shows in the lag.
  }
}

void TransportFaultLog::detach() noexcept {
  std::lock_guard lock(mutex_);
  log_ = nullptr;
}

}  // namespace herald
