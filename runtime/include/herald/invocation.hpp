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
//   tx.capability<fx::Converter>("fx.Converter") // a user capability
//   tx.send(Room::kind(), key, "post", args);    // Rooms(key).post(...)
//
// Emissions, outbound agent messages and Idempotency.remember are staged
// here and commit together when the handler returns normally (D1); an
// exception discards them.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "herald/agent_message.hpp"
#include "herald/backend.hpp"
#include "herald/cause.hpp"
#include "herald/event_type.hpp"
#include "herald/time.hpp"

namespace herald {

class AgentKindBase;
class Runtime;
struct ContextRuntime;

// Who is running: the publishing context and publisher identity of its
// emissions, and the scope of its Idempotency keys. Owned by the runtime.
struct InvocationSite {
  std::string_view context;
  ContextRuntime* context_runtime = nullptr;
  ContextLog* log = nullptr;
  std::string_view
      publisher_id;        // "commerce.order.Order/o-17" or a service name
  std::string_view owner;  // agent kind or service, qualified
  std::string_view idempotency_scope;
};

class Invocation;

namespace detail {
// The invocation running on this thread, or nullptr (running_invocation()).
extern constinit thread_local Invocation* t_running;
}  // namespace detail

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
  // While it exists, the invocation is the one running on this thread (see
  // detail::running_invocation).
  Invocation(Runtime& runtime, const InvocationSite& site,
             std::string_view handler, const Cause& cause)
      : runtime_(runtime),
        site_(site),
        handler_(handler),
        cause_(cause),
        enclosing_(std::exchange(detail::t_running, this)) {}
  // A delivery's invocation, caused by the delivered event. Its cause is
  // built in place: a copy of one built on the stack reads it back in wide
  // loads that wait on the narrower stores just made, which was a tenth of
  // a delivery's time with eight subscriptions.
  Invocation(Runtime& runtime, const InvocationSite& site,
             std::string_view handler, const EventEnvelope& delivered)
      : runtime_(runtime),
        site_(site),
        handler_(handler),
        cause_(Cause::of_delivery(delivered)),
        enclosing_(std::exchange(detail::t_running, this)) {}
  // Inline: it ends every delivery, and most invocations end with nothing
  // left to release (end_staged() does the rest).
  [[gnu::always_inline]] ~Invocation() {
    detail::t_running = enclosing_;
    if (stages_) end_staged();
  }
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

  // Stages a one-way message to the agent of `kind` whose key text is `key`:
  // `args` is the handler's encoded argument struct. It commits with the
  // invocation and is posted to the agent's mailbox afterwards. Throws
  // RegistrationError (aborting the handler) unless this invocation's
  // context owns the kind or declared it with Context::uses_agent.
  void send(const AgentKindBase& kind, std::string key,
            std::string_view handler, nlohmann::json args);

  // The pending agent message this invocation runs: its commit consumes it.
  void consume_message(const MessageId& id) {
    consumed_ = id;
    stages_ = true;
  }

  // The host's implementation of a user capability that this invocation's
  // context declared with Context::capability. Throws RegistrationError if
  // it declared none of that name and type.
  template <class C>
  C& capability(std::string_view qualified) {
    return *static_cast<C*>(capability_implementation(qualified, typeid(C)));
  }

 private:
  friend class RuntimeImpl;
  friend class Clock;
  friend class Logger;
  friend class Idempotency;
  friend class Random;

  void* capability_implementation(std::string_view qualified,
                                  const std::type_info& type) const;
  // The Idempotency keys this invocation reserved go back.
  void release_reservations() noexcept;
  // The end of an invocation that still holds something: its reservations
  // go back, and emissions neither committed nor aborted (a simulated crash
  // passing through) are counted as emitted.
  void end_staged() noexcept;
  // Counts an Events.emit call that was refused (not staged); a staged one
  // is counted when its invocation commits or aborts.
  void count_refused_emit(const EventType& type) noexcept;

  Runtime& runtime_;
  const InvocationSite& site_;
  std::string_view handler_;
  Cause cause_;
  std::vector<OutboxEvent> events_;
  // What few invocations stage, allocated on first use (so that the
  // others construct and destroy one pointer instead of three vectors):
  // agent messages sent, Idempotency keys remembered, and the keys this
  // invocation reserved (scope/key), released when it ends.
  struct Staged {
    std::vector<AgentMessage> messages;
    std::vector<CommitRecord::IdempotencyWrite> remembered;
    std::vector<std::string> reserved;
  };
  Staged& staged() {
    if (!staged_) staged_ = std::make_unique<Staged>();
    stages_ = true;
    return *staged_;
  }
  std::unique_ptr<Staged> staged_;
  std::optional<MessageId> consumed_;
  // Set once the invocation stages anything besides a delivery's dedup
  // record (an emission, a message, an Idempotency key or reservation, a
  // consumed message): one test tells the common delivery's commit and
  // end that there is nothing else to do.
  bool stages_ = false;
  Invocation* enclosing_;  // what ran on this thread before, normally nothing
};

namespace detail {
// The invocation running on this thread, or nullptr.
const Invocation* running_invocation();
// Throws the ReentrantCallError for a host call made while
// running_invocation() is set: `called` names the host call (a handler's
// qualified name, an agent's state, a publish). Host calls test
// running_invocation() first, so that the message is only built to throw.
[[noreturn]] void refuse_host_call(std::string_view called);
}  // namespace detail

template <class E>
void Events::emit(E event) {
  tx_.stage_event(AnyEvent::of<E>(std::move(event)));
}

}  // namespace herald
