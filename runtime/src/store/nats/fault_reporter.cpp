#include "fault_reporter.hpp"

namespace herald::nats_detail {

FaultReporter::FaultReporter(std::shared_ptr<TransportFaults> sink,
                             TransportFaultKind kind, std::string context,
                             std::string stream, std::string consumer)
    : sink_(std::move(sink)),
      kind_(kind),
      context_(std::move(context)),
      stream_(std::move(stream)),
      consumer_(std::move(consumer)) {}

TransportFault FaultReporter::fault(TransportFaultKind kind) const {
  TransportFault f;
  f.kind = kind;
  f.context = context_;
  f.stream = stream_;
  f.consumer = consumer_;
  f.failures = failures_;
  return f;
}

void FaultReporter::send(const TransportFault& fault) noexcept {
  if (sink_) sink_->report(fault);
}

void FaultReporter::failed(const std::exception& error) noexcept {
  try {
    const auto now = std::chrono::steady_clock::now();
    if (failures_++ == 0) first_failure_ = now;
    std::string text = error.what();
    if (failures_ > 1 && text == last_error_ && now - last_line_ < kRepeat)
      return;
    TransportFault f = fault(kind_);
    f.error = text;
    f.failing_for = std::chrono::duration_cast<Duration>(now - first_failure_);
    last_error_ = std::move(text);
    last_line_ = now;
    send(f);
  } catch (...) {
    // Not reported; the next failure tries again.
  }
}

void FaultReporter::succeeded() noexcept {
  if (failures_ == 0) return;
  try {
    TransportFault f = fault(TransportFaultKind::recovered);
    f.failing_for = std::chrono::duration_cast<Duration>(
        std::chrono::steady_clock::now() - first_failure_);
    send(f);
  } catch (...) {
    // The recovery is not reported; the work goes on.
  }
  failures_ = 0;
  last_error_.clear();
}

void FaultReporter::rejected(std::uint64_t stream_sequence,
                             std::string_view why) noexcept {
  try {
    TransportFault f = fault(TransportFaultKind::message_rejected);
    f.failures = 0;
    f.stream_sequence = stream_sequence;
    f.error = std::string(why);
    send(f);
  } catch (...) {
    // Not reported: the message stays in the stream all the same.
  }
}

}  // namespace herald::nats_detail
