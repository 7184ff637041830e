#pragma once
// A handler invocation is a transaction. Generated handler bodies receive an
// Invocation and reach the first-party capabilities through it, named as in
// Herald source:
//
//   tx.events().emit(PaymentConfirmed{...});     // Events.emit
//   tx.clock().now();                            // Clock.now
//   tx.logger().info("...");                     // Logger.info
//   tx.idempotency().seen(key);                  // Idempotency.seen
//   tx.random().uuid();                          // Random.uuid
//   tx.fail("order has no customer");            // fail(...)
//
// Emissions, outbound agent messages and Idempotency.remember are staged
// here and commit together when the handler returns normally (D1); an
// exception discards them.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "herald/backend.hpp"
#include "herald/event_type.hpp"
#include "herald/time.hpp"

namespace herald {

class Runtime;
struct ContextRuntime;
template <class State>
class AgentKind;

// Where an invocation sits in a cascade; copied onto the envelopes of what it
// emits and onto the agent messages it sends.
struct Cause {
  std::optional<EventId> causation;  // the delivered event that led here
  EventId correlation;               // nil at the root: each emission roots its own cascade
  std::int64_t depth = 0;            // envelope depth of emissions made here

  static Cause of_delivery(const EventEnvelope& env) {
    return Cause{env.eventId, env.correlationId, env.depth + 1};
  }
};

// Who is running: the publishing context and publisher identity of its
// emissions, and the scope of its Idempotency keys. Owned by the runtime.
struct InvocationSite {
  std::string_view context;
  ContextRuntime* context_runtime = nullptr;
  ContextLog* log = nullptr;
  PublisherIndex publisher = 0;
  std::string_view publisher_id;  // "commerce.order.Order/o-17" or a service name
  std::string_view owner;         // agent kind or service, qualified
  std::string_view idempotency_scope;
};

class Invocation;

class Events {
 public:
  explicit Events(Invocation& tx) : tx_(tx) {}
  template <class E>
  void emit(E event);

 private:
  Invocation& tx_;
};

class Clock {
 public:
  explicit Clock(Invocation& tx) : tx_(tx) {}
  Instant now() const;

 private:
  Invocation& tx_;
};

class Logger {
 public:
  explicit Logger(Invocation& tx) : tx_(tx) {}
  void info(std::string_view message) const;
  void warn(std::string_view message) const;
  void error(std::string_view message) const;

 private:
  Invocation& tx_;
};

class Idempotency {
 public:
  explicit Idempotency(Invocation& tx) : tx_(tx) {}
  // True if `key` was remembered (and has not expired) by a committed
  // invocation of the same handler owner, or earlier in this one.
  bool seen(std::string_view key) const;
  // Remembers `key` for `ttl`, committed with the invocation.
  void remember(std::string key, Duration ttl);

 private:
  Invocation& tx_;
};

class Random {
 public:
  explicit Random(Invocation& tx) : tx_(tx) {}
  // Uniform in [lo, hi]; reproducible under the deterministic executor.
  std::int64_t next_int(std::int64_t lo, std::int64_t hi) const;
  EventId uuid() const;

 private:
  Invocation& tx_;
};

class Invocation {
 public:
  Invocation(Runtime& runtime, const InvocationSite& site, std::string_view handler, Cause cause);
  Invocation(const Invocation&) = delete;
  Invocation& operator=(const Invocation&) = delete;

  Events events() { return Events(*this); }
  Clock clock() { return Clock(*this); }
  Logger logger() { return Logger(*this); }
  Idempotency idempotency() { return Idempotency(*this); }
  Random random() { return Random(*this); }

  // Herald's fail(...): aborts the handler.
  [[noreturn]] void fail(const std::string& message);

  // The handler's qualified name: "commerce.order.Order.markPaid", or the
  // service name for a subscription (whose handler name is empty).
  std::string handler_name() const;
  const Cause& cause() const { return cause_; }
  Runtime& runtime() { return runtime_; }

  // Stages an emission after the D10 and ownership checks; throws LimitError
  // or OwnershipError, which aborts the handler.
  void stage_event(AnyEvent event);

  // Stages a one-way message to another agent, posted at commit.
  template <class State>
  void send(const AgentKind<State>& kind, std::string key, std::string_view handler,
            std::type_identity_t<std::function<void(Invocation&, State&)>> body);

 private:
  friend class Runtime;
  friend class Clock;
  friend class Logger;
  friend class Idempotency;
  friend class Random;

  struct StagedMessage {
    std::function<void(Runtime&, const Cause&)> post;
  };

  Runtime& runtime_;
  const InvocationSite& site_;
  std::string_view handler_;
  Cause cause_;
  std::vector<OutboxEvent> events_;
  std::vector<StagedMessage> messages_;
  std::vector<CommitRecord::IdempotencyWrite> remembered_;
};

template <class E>
void Events::emit(E event) {
  tx_.stage_event(AnyEvent::of<E>(std::move(event)));
}

}  // namespace herald
