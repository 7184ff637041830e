#include "herald/fault_injector.hpp"

namespace herald {

void FaultInjector::fail_delivery(std::string subscription, std::uint64_t k, std::string message) {
  delivery_faults_.emplace(std::move(subscription), Rule{k, std::move(message)});
}

void FaultInjector::throw_in_handler(std::string handler, std::uint64_t k, std::string message) {
  handler_faults_.emplace(std::move(handler), Rule{k, std::move(message)});
}

void FaultInjector::crash_after_commit(std::string subscription, std::uint64_t k) {
  crash_commits_.emplace(std::move(subscription), k);
}

std::optional<std::string> FaultInjector::delivery_attempt_armed(const std::string& subscription) {
  const std::uint64_t n = ++delivery_attempts_[subscription];
  auto [first, last] = delivery_faults_.equal_range(subscription);
  for (auto it = first; it != last; ++it) {
    if (it->second.k == n) return it->second.message;
  }
  return std::nullopt;
}

std::optional<std::string> FaultInjector::handler_exit_armed(const std::string& handler) {
  const std::uint64_t n = ++handler_runs_[handler];
  auto [first, last] = handler_faults_.equal_range(handler);
  for (auto it = first; it != last; ++it) {
    if (it->second.k == n) return it->second.message;
  }
  return std::nullopt;
}

bool FaultInjector::delivery_commit_armed(const std::string& subscription) {
  const std::uint64_t n = ++commits_[subscription];
  auto [first, last] = crash_commits_.equal_range(subscription);
  for (auto it = first; it != last; ++it) {
    if (it->second == n) return true;
  }
  return false;
}

}  // namespace herald
