#pragma once
// One event as the runtime holds it: envelope, type and typed payload in a
// single allocation, shared by the log, every subscription queue and any
// dead letter.
#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>

#include "herald/envelope.hpp"
#include "herald/event_type.hpp"

namespace herald {

using PublisherIndex = std::uint32_t;

struct LogEntry {
  EventEnvelope envelope;  // completed when the event enters its publisher's log
  const EventType* type = nullptr;
  const void* payload = nullptr;  // points into the same allocation
  PublisherIndex publisher = 0;
  // Subscriptions that still owe an acknowledgement or dead letter; the log
  // may drop the entry once it is zero.
  std::atomic<std::int32_t> pending{0};
};
using LogEntryPtr = std::shared_ptr<LogEntry>;

template <class E>
struct TypedLogEntry final : LogEntry {
  explicit TypedLogEntry(E v) : value(std::move(v)) {
    type = &event_type<E>();
    payload = &value;
  }
  const E value;
};

// A typed payload on its way from Events.emit (or a host publish) to the log.
struct AnyEvent {
  LogEntryPtr entry;

  template <class E>
  static AnyEvent of(E value) {
    return AnyEvent{std::make_shared<TypedLogEntry<E>>(std::move(value))};
  }
  const EventType& type() const { return *entry->type; }
  template <class E>
  const E* get() const {
    return entry->type == &event_type<E>() ? static_cast<const E*>(entry->payload) : nullptr;
  }
};

}  // namespace herald
