#pragma once
// One event as the runtime holds it: envelope, type and typed payload in a
// single allocation, shared by the log, every subscription queue and any
// dead letter.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "herald/envelope.hpp"
#include "herald/event_type.hpp"

namespace herald {

// A stored event whose payload did not decode (D9): the text as stored and
// the codec's error. Its entry has no payload.
struct MalformedPayload {
  std::string raw;
  std::string error;
};

struct LogEntry {
  // Completed by the commit that logs the event; publisherId then points
  // into the store's own copy of the publisher id.
  EventEnvelope envelope;
  // nullptr for an entry read back from a store whose event type this build
  // does not know: it is not routed.
  const EventType* type = nullptr;
  const void* payload = nullptr;  // points into the same allocation
  // Set (and payload null) for an entry read back whose payload did not
  // decode: it is dead-lettered without running a handler.
  const MalformedPayload* malformed = nullptr;
  std::int64_t position = 0;  // in its publishing context's log, from 1
  // Subscriptions of this runtime that still owe an acknowledgement or dead
  // letter (volatile: recovery recounts it); the log may drop the entry once
  // it is zero.
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

namespace detail {
// Log entries are allocated per emission and freed once every subscription
// is done with them, in bursts larger than malloc's per-thread caches; these
// keep per-thread free lists by size so a steady stream reuses blocks. A
// block may be freed on another thread than the one that allocated it.
void* entry_allocate(std::size_t bytes);
void entry_deallocate(void* p, std::size_t bytes) noexcept;

template <class T>
struct EntryAllocator {
  using value_type = T;
  EntryAllocator() = default;
  template <class U>
  EntryAllocator(const EntryAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__,
                  "over-aligned events need std::allocator");
    return static_cast<T*>(entry_allocate(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    entry_deallocate(p, n * sizeof(T));
  }
  template <class U>
  bool operator==(const EntryAllocator<U>&) const noexcept {
    return true;
  }
};

template <class T, class... Args>
std::shared_ptr<T> make_entry(Args&&... args) {
  if constexpr (alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    return std::allocate_shared<T>(EntryAllocator<T>{},
                                   std::forward<Args>(args)...);
  } else {
    return std::make_shared<T>(std::forward<Args>(args)...);
  }
}
}  // namespace detail

// A typed payload on its way from Events.emit (or a host publish) to the log.
struct AnyEvent {
  LogEntryPtr entry;

  template <class E>
  static AnyEvent of(E value) {
    return AnyEvent{detail::make_entry<TypedLogEntry<E>>(std::move(value))};
  }
  const EventType& type() const { return *entry->type; }
  template <class E>
  const E* get() const {
    return entry->type == &event_type<E>()
               ? static_cast<const E*>(entry->payload)
               : nullptr;
  }
};

}  // namespace herald
