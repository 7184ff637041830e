#pragma once
// Internal to the nats backend: how a relay's or an ingest's thread reports
// what failed to the runtime (TransportFaults, herald/transport.hpp). The
// thread retries on its own every few hundred milliseconds, so the log gets
// the first failure at once, then, while it goes on, a line when the error
// changes or every kRepeat; and one `recovered` line, with the number of
// failures and how long they lasted, once it works again. A rejected
// message gets a line each. Without a sink (a backend used without a
// runtime) nothing is reported.
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <string_view>

#include "herald/transport.hpp"

namespace herald::nats_detail {

class FaultReporter {
 public:
  static constexpr std::chrono::seconds kRepeat{30};

  FaultReporter(std::shared_ptr<TransportFaults> sink, TransportFaultKind kind,
                std::string context, std::string stream,
                std::string consumer = {});

  void failed(const std::exception& error) noexcept;
  // Cheap when nothing failed.
  void succeeded() noexcept;
  void rejected(std::uint64_t stream_sequence, std::string_view why) noexcept;

 private:
  TransportFault fault(TransportFaultKind kind) const;
  void send(const TransportFault& fault) noexcept;

  std::shared_ptr<TransportFaults> sink_;
  TransportFaultKind kind_;
  std::string context_;
  std::string stream_;
  std::string consumer_;
  std::uint64_t failures_ = 0;  // since the last success
  std::chrono::steady_clock::time_point first_failure_{};
  std::chrono::steady_clock::time_point last_line_{};
  std::string last_error_;
};

}  // namespace herald::nats_detail
