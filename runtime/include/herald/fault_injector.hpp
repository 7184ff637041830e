#pragma once
// Fault injection for the deterministic executor. The delivery logic asks the
// injector at the points where a real system can fail; the test decides.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace herald {

class FaultInjector {
 public:
  // The k-th delivery attempt (1-based, retries included) to `subscription`
  // fails before its handler runs, as a transport fault would.
  void fail_delivery(std::string subscription, std::uint64_t k, std::string message = "injected delivery fault");
  // The k-th invocation of `handler` (a subscription's service name or an
  // agent handler's qualified name) throws after its body ran, so whatever it
  // staged must be discarded.
  void throw_in_handler(std::string handler, std::uint64_t k, std::string message = "injected handler fault");
  // The process "crashes" when executor step n is about to run (see
  // DeterministicExecutor::crash_at_step).
  void crash_at_step(std::uint64_t n) { crash_step_ = n; }
  // The process "crashes" right after the k-th successful delivery commit to
  // `subscription`, before the delivery is acknowledged: the one window in
  // which a redelivery meets a recorded eventId.
  void crash_after_commit(std::string subscription, std::uint64_t k);

  // Called by the delivery logic. Inline checks first: on the delivery path
  // nothing is usually armed, and then each call is one comparison.
  std::optional<std::string> on_delivery_attempt(const std::string& subscription) {
    if (delivery_faults_.empty()) return std::nullopt;
    return delivery_attempt_armed(subscription);
  }
  std::optional<std::string> on_handler_exit(const std::string& handler) {
    if (handler_faults_.empty()) return std::nullopt;
    return handler_exit_armed(handler);
  }
  bool on_delivery_commit(const std::string& subscription) {
    return !crash_commits_.empty() && delivery_commit_armed(subscription);
  }
  bool crash_due(std::uint64_t step) const { return crash_step_ && *crash_step_ == step; }
  void clear_crash_step() { crash_step_.reset(); }

 private:
  std::optional<std::string> delivery_attempt_armed(const std::string& subscription);
  std::optional<std::string> handler_exit_armed(const std::string& handler);
  bool delivery_commit_armed(const std::string& subscription);

  struct Rule {
    std::uint64_t k;
    std::string message;
  };
  std::map<std::string, std::uint64_t> delivery_attempts_;
  std::multimap<std::string, Rule> delivery_faults_;
  std::map<std::string, std::uint64_t> handler_runs_;
  std::multimap<std::string, Rule> handler_faults_;
  std::map<std::string, std::uint64_t> commits_;
  std::multimap<std::string, std::uint64_t> crash_commits_;
  std::optional<std::uint64_t> crash_step_;
};

}  // namespace herald
