// Host taps (Runtime::tap): every routed entry of a tapped event type is
// shown to the host's callbacks, beside the subscriptions and apart from
// them (nothing is delivered or acknowledged for a tap).
#include <exception>
#include <string>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "runtime_impl.hpp"

namespace herald {

void Runtime::tap(const EventType& type, EventTap tap) {
  impl_->tap(type, std::move(tap));
}

void RuntimeImpl::tap(const EventType& type, EventTap tap) {
  if (sealed_.load()) {
    throw RegistrationError(fmt::format(
        "cannot tap {}: taps are set before the first call", type.name()));
  }
  if (owner_of(type) == nullptr) {
    throw RegistrationError(fmt::format(
        "cannot tap {}: no installed context owns it (install it first)",
        type.name()));
  }
  if (!tap) {
    throw RegistrationError(
        fmt::format("cannot tap {}: the tap is empty", type.name()));
  }
  if (taps_.size() <= type.index()) taps_.resize(type.index() + 1);
  taps_[type.index()].push_back(std::move(tap));
}

void RuntimeImpl::call_taps(const LogEntry& entry) noexcept {
  const EventType* type = entry.type;
  if (type == nullptr || type->index() >= taps_.size()) return;
  for (const EventTap& tap : taps_[type->index()]) {
    try {
      tap(entry);
    } catch (const std::exception& e) {
      try {
        write_log(LogLevel::error, {{"event", "tap.fault"},
                                    {"eventType", type->name()},
                                    {"eventId", entry.envelope.eventId.str()},
                                    {"message", e.what()}});
      } catch (...) {  // NOLINT(bugprone-empty-catch): the log is best effort
      }
    } catch (...) {
      try {
        write_log(LogLevel::error, {{"event", "tap.fault"},
                                    {"eventType", type->name()},
                                    {"eventId", entry.envelope.eventId.str()},
                                    {"message", "unknown exception"}});
      } catch (...) {  // NOLINT(bugprone-empty-catch): the log is best effort
      }
    }
  }
}

}  // namespace herald
