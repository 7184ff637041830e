#pragma once
// Agents: typed state with a key, one message at a time.
//
// Generated code declares each agent kind once and wraps AgentRef in a typed
// handle:
//
//   inline const herald::AgentKind<OrderState> kOrder{"commerce.order", "Order", {...invariants}};
//   Order Order::at(herald::Runtime& rt, OrderId id) { return Order(herald::AgentRef(rt, kOrder, id.raw())); }
//   void Order::markPaid(InternalCaller, AuthId authId) {
//     ref_.call("markPaid", [&](herald::Invocation& tx, OrderState& s) { ... });
//   }
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "herald/errors.hpp"
#include "herald/executor.hpp"
#include "herald/invocation.hpp"

namespace herald {

class AgentKindBase {
 public:
  AgentKindBase(std::string context, std::string name);
  virtual ~AgentKindBase() = default;
  AgentKindBase(const AgentKindBase&) = delete;
  AgentKindBase& operator=(const AgentKindBase&) = delete;

  const std::string& context() const { return context_; }
  const std::string& name() const { return name_; }
  const std::string& qualified() const { return qualified_; }  // "commerce.order.Order"
  std::uint32_t index() const { return index_; }

 private:
  std::string context_;
  std::string name_;
  std::string qualified_;
  std::uint32_t index_;
};

template <class State>
struct Invariant {
  std::string_view name;
  bool (*holds)(const State&);
};

template <class State>
class AgentKind final : public AgentKindBase {
 public:
  AgentKind(std::string context, std::string name, std::vector<Invariant<State>> invariants = {})
      : AgentKindBase(std::move(context), std::move(name)), invariants_(std::move(invariants)) {}

  std::optional<std::string_view> violated(const State& s) const {
    for (const Invariant<State>& inv : invariants_) {
      if (!inv.holds(s)) return inv.name;
    }
    return std::nullopt;
  }

 private:
  std::vector<Invariant<State>> invariants_;
};

// One agent instance: an actor whose mailbox holds one-way messages, and
// which a host call can also enter directly (on the host's thread) when no
// message is running. Either way, one invocation at a time.
class AgentInstanceBase : public Actor {
 public:
  AgentInstanceBase(Executor& executor, const AgentKindBase& kind, std::string key, InvocationSite site);

  const AgentKindBase& kind() const { return kind_; }
  const std::string& key() const { return key_; }
  const InvocationSite& site() const { return site_; }

  // Host side: waits until no invocation runs, then holds the agent.
  void acquire();
  void release();
  // Queues a message; runs later on the executor.
  void post(std::function<void()> message);
  void run() override;
  // Simulated crash: the mailbox is volatile. Returns how many messages it held.
  std::size_t drop_mailbox();

 private:
  Executor& executor_;
  const AgentKindBase& kind_;
  std::string key_;
  InvocationSite site_;
  std::mutex mutex_;
  std::condition_variable free_;
  std::deque<std::function<void()>> mailbox_;
  bool running_ = false;
  bool queued_ = false;
};

template <class State>
class AgentInstance final : public AgentInstanceBase {
 public:
  using AgentInstanceBase::AgentInstanceBase;
  // Committed state; read and replaced only while the agent is held.
  std::shared_ptr<const State> state;
};

namespace detail {
// Runtime services the agent templates need; defined in runtime.cpp.
AgentInstanceBase& find_agent(Runtime& rt, const AgentKindBase& kind, std::string_view key,
                              std::unique_ptr<AgentInstanceBase> (*make)(Executor&, const AgentKindBase&,
                                                                         std::string, InvocationSite));
std::shared_ptr<const void> load_agent_state(Runtime& rt, const AgentInstanceBase& agent);
void commit_agent(Runtime& rt, Invocation& tx, AgentInstanceBase& agent, std::shared_ptr<const void> state);
// Reports the fault and discards what the invocation staged.
void abort_invocation(Runtime& rt, Invocation& tx, std::string_view message);
void check_handler_fault_injection(Runtime& rt, Invocation& tx);
void note_host_call(Runtime& rt);

template <class State>
std::unique_ptr<AgentInstanceBase> make_instance(Executor& ex, const AgentKindBase& kind, std::string key,
                                                 InvocationSite site) {
  return std::make_unique<AgentInstance<State>>(ex, kind, std::move(key), site);
}

template <class State>
AgentInstance<State>& instance(Runtime& rt, const AgentKind<State>& kind, std::string_view key) {
  return static_cast<AgentInstance<State>&>(find_agent(rt, kind, key, &make_instance<State>));
}

template <class State>
const State& current_state(Runtime& rt, AgentInstance<State>& agent) {
  if (!agent.state) {
    auto stored = load_agent_state(rt, agent);
    agent.state = stored ? std::static_pointer_cast<const State>(stored) : std::make_shared<const State>();
  }
  return *agent.state;
}

// Runs one invocation on a held agent: a copy of the state is the working
// set; it replaces the committed state only if the body and every invariant
// succeed.
template <class State, class Body>
auto invoke(Runtime& rt, const AgentKind<State>& kind, AgentInstance<State>& agent, std::string_view handler,
            const Cause& cause, Body& body) {
  using R = std::invoke_result_t<Body&, Invocation&, State&>;
  Invocation tx(rt, agent.site(), handler, cause);
  State working = current_state(rt, agent);
  auto finish = [&] {
    if (auto inv = kind.violated(working)) {
      throw HandlerFailure("invariant '" + std::string(*inv) + "' does not hold");
    }
    check_handler_fault_injection(rt, tx);
    auto next = std::make_shared<const State>(std::move(working));
    agent.state = next;
    commit_agent(rt, tx, agent, std::move(next));
  };
  try {
    if constexpr (std::is_void_v<R>) {
      body(tx, working);
      finish();
    } else {
      R result = body(tx, working);
      finish();
      return result;
    }
  } catch (const std::exception& e) {
    abort_invocation(rt, tx, e.what());
    throw HandlerFault(tx.handler_name(), e.what());
  } catch (...) {
    abort_invocation(rt, tx, "unknown exception");
    throw HandlerFault(tx.handler_name(), "unknown exception");
  }
}
}  // namespace detail

// Holds an agent for the scope of a host call.
class HeldAgent {
 public:
  explicit HeldAgent(AgentInstanceBase& agent) : agent_(agent) { agent_.acquire(); }
  ~HeldAgent() { agent_.release(); }
  HeldAgent(const HeldAgent&) = delete;
  HeldAgent& operator=(const HeldAgent&) = delete;

 private:
  AgentInstanceBase& agent_;
};

template <class State>
class AgentRef {
 public:
  AgentRef(Runtime& rt, const AgentKind<State>& kind, std::string key)
      : rt_(&rt), kind_(&kind), key_(std::move(key)) {}

  // A host call: runs the handler now, on the caller's thread, once the agent
  // is free. Returns the body's result; a fault throws HandlerFault and
  // commits nothing.
  template <class Body>
  auto call(std::string_view handler, Body&& body) {
    detail::note_host_call(*rt_);
    auto& agent = detail::instance(*rt_, *kind_, key_);
    HeldAgent held(agent);
    return detail::invoke(*rt_, *kind_, agent, handler, Cause{}, body);
  }

  // The committed state, read while holding the agent.
  State state() const {
    auto& agent = detail::instance(*rt_, *kind_, key_);
    HeldAgent held(agent);
    return detail::current_state(*rt_, agent);
  }

  const std::string& key() const { return key_; }

 private:
  Runtime* rt_;
  const AgentKind<State>* kind_;
  std::string key_;
};

template <class State>
void Invocation::send(const AgentKind<State>& kind, std::string key, std::string_view handler,
                      std::type_identity_t<std::function<void(Invocation&, State&)>> body) {
  messages_.push_back(StagedMessage{[&kind, key = std::move(key), handler = std::string(handler),
                                     body = std::move(body)](Runtime& rt, const Cause& cause) mutable {
    auto& agent = detail::instance(rt, kind, key);
    agent.post([&rt, &kind, &agent, handler, cause, body]() mutable {
      try {
        detail::invoke(rt, kind, agent, handler, cause, body);
      } catch (const HandlerFault&) {
        // Already reported by invoke; a one-way message has no caller to tell.
      }
    });
  }});
}

}  // namespace herald
