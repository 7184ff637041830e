#pragma once
// The runtime's side of TransportFaults (herald/transport.hpp): each report
// of a transport's thread becomes a line of the runtime's structured log,
// stamped with the wall clock (the thread is not the executor's). The
// transport may keep it past the runtime: the runtime's handle detaches it
// when destroyed, and later reports are dropped.
#include <memory>
#include <mutex>
#include <string>

#include "herald/log.hpp"
#include "herald/transport.hpp"

namespace herald {

class TransportFaultLog final : public TransportFaults {
 public:
  TransportFaultLog(RuntimeLog& log, std::string node)
      : log_(&log), node_(std::move(node)) {}
  void report(const TransportFault& fault) noexcept override;
  void detach() noexcept;

 private:
  std::mutex mutex_;
  RuntimeLog* log_;  // null once detached
  std::string node_;
};

// The runtime's member: shares the log with the transport and detaches it
// when the runtime's log is about to go.
class TransportFaultsHandle {
 public:
  TransportFaultsHandle(RuntimeLog& log, std::string node)
      : log_(std::make_shared<TransportFaultLog>(log, std::move(node))) {}
  ~TransportFaultsHandle() { log_->detach(); }
  TransportFaultsHandle(const TransportFaultsHandle&) = delete;
  TransportFaultsHandle& operator=(const TransportFaultsHandle&) = delete;
  std::shared_ptr<TransportFaults> shared() const { return log_; }

 private:
  std::shared_ptr<TransportFaultLog> log_;
};

}  // namespace herald
