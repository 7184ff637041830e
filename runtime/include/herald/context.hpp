#pragma once
// Registration of one bounded context: the event types it owns, its agents,
// the agent kinds of other contexts it sends messages to, the user
// capabilities its handlers use (with the host's implementations) and its
// subscriptions. Generated code builds one Context per Herald context and the
// host installs it:
//
//   herald::Context ctx("commerce.notifications");
//   ctx.agent(Inbox::kind());
//   ctx.uses_agent("chat.rooms.Room");
//   ctx.capability<fx::Converter>("fx.Converter", &converter);
//   ctx.subscribe<commerce::order::PaymentConfirmed>({
//       .service = "commerce.notifications.OnDomesticPayment",
//       .pattern = [](const PaymentConfirmed& e) { return e.region ==
//       Region::Domestic; }, .handler = [](herald::Invocation& tx, const
//       PaymentConfirmed& e, const herald::EventEnvelope&) {...},
//   });
//   runtime.install(std::move(ctx));
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
#include <vector>

#include "herald/event_type.hpp"

namespace herald {

class AgentKindBase;
// Patterns, `via` predicates and handlers take it by reference; what reads
// it includes herald/envelope.hpp.
struct EventEnvelope;
// Handlers take it by reference; what calls them includes
// herald/invocation.hpp.
class Invocation;

using ViaPredicate = std::function<bool(const EventEnvelope&)>;

// `via schema(lo..hi)`; hi = nullopt for `schema(lo..)`.
ViaPredicate via_schema(std::int64_t lo, std::optional<std::int64_t> hi);

template <class E>
struct Subscription {
  std::string service;  // qualified service name; orders delivery (D11)
  std::function<bool(const E&)>
      pattern;       // compiled pattern; empty matches every event
  ViaPredicate via;  // compiled `via`; empty accepts any schema version
  std::function<void(Invocation&, const E&, const EventEnvelope&)> handler;
};

// A user capability as the runtime keeps it: `type` is the capability's
// class, which Invocation::capability checks before its cast.
struct CapabilitySpec {
  std::string name;  // qualified: "fx.Converter"
  const std::type_info* type = nullptr;
  void* implementation = nullptr;
};

// A subscription's handler with its event type erased: the typed
// std::function is kept as it is and called through a plain function of
// its event type, so a delivery makes one std::function call, not two.
class ErasedHandler {
 public:
  ErasedHandler() = default;
  // Empty when `handler` is.
  template <class E>
  static ErasedHandler
  of(std::function<void(Invocation&, const E&, const EventEnvelope&)> handler) {
    using Typed =
        std::function<void(Invocation&, const E&, const EventEnvelope&)>;
    ErasedHandler erased;
    if (!handler) return erased;
    erased.handler_ = std::make_shared<const Typed>(std::move(handler));
    erased.call_ = [](const void* h, Invocation& tx, const void* e,
                      const EventEnvelope& env) {
      (*static_cast<const Typed*>(h))(tx, *static_cast<const E*>(e), env);
    };
    return erased;
  }
  explicit operator bool() const { return call_ != nullptr; }
  // `event` is the E the handler was made for.
  void operator()(Invocation& tx, const void* event,
                  const EventEnvelope& env) const {
    call_(handler_.get(), tx, event, env);
  }

 private:
  std::shared_ptr<const void> handler_;
  void (*call_)(const void*, Invocation&, const void*,
                const EventEnvelope&) = nullptr;
};

// The type-erased form the runtime keeps.
struct SubscriptionSpec {
  std::string service;
  const EventType* type = nullptr;
  std::function<bool(const void*)> pattern;
  ViaPredicate via;
  ErasedHandler handler;
};

class Context {
 public:
  explicit Context(std::string name) : name_(std::move(name)) {}

  template <class E>
  Context& owns() {
    owned_.push_back(&event_type<E>());
    return *this;
  }

  // An agent kind this context owns.
  Context& agent(const AgentKindBase& kind) {
    agents_.push_back(&kind);
    return *this;
  }

  // An agent kind of another context that this context's handlers send
  // messages to, by qualified name ("chat.rooms.Room"). Runtime::install
  // refuses the context unless an installed context owns the kind.
  Context& uses_agent(std::string qualified) {
    used_agents_.push_back(std::move(qualified));
    return *this;
  }

  // A user capability this context's handlers use ("fx.Converter"), with
  // the host's implementation, which must outlive the runtime.
  // Runtime::install refuses a null implementation.
  template <class C>
  Context& capability(std::string qualified, C* implementation) {
    capabilities_.push_back(
        CapabilitySpec{std::move(qualified), &typeid(C), implementation});
    return *this;
  }

  // A service the host calls (no `from`), by qualified name; see ServiceRef.
  Context& service(std::string qualified_name) {
    services_.push_back(std::move(qualified_name));
    return *this;
  }

  template <class E>
  Context& subscribe(Subscription<E> s) {
    SubscriptionSpec spec;
    spec.service = std::move(s.service);
    spec.type = &event_type<E>();
    if (s.pattern) {
      spec.pattern = [p = std::move(s.pattern)](const void* e) {
        return p(*static_cast<const E*>(e));
      };
    }
    spec.via = std::move(s.via);
    spec.handler = ErasedHandler::of<E>(std::move(s.handler));
    subscriptions_.push_back(std::move(spec));
    return *this;
  }

  const std::string& name() const { return name_; }
  const std::vector<const EventType*>& owned() const { return owned_; }
  const std::vector<const AgentKindBase*>& agents() const { return agents_; }
  const std::vector<std::string>& used_agents() const { return used_agents_; }
  const std::vector<CapabilitySpec>& capabilities() const {
    return capabilities_;
  }
  std::vector<SubscriptionSpec>& subscriptions() { return subscriptions_; }
  const std::vector<std::string>& services() const { return services_; }

 private:
  std::string name_;
  std::vector<const EventType*> owned_;
  std::vector<const AgentKindBase*> agents_;
  std::vector<std::string> used_agents_;
  std::vector<CapabilitySpec> capabilities_;
  std::vector<SubscriptionSpec> subscriptions_;
  std::vector<std::string> services_;
};

}  // namespace herald
