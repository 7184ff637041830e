#pragma once
// Agents: typed state with a key, one invocation at a time.
//
// Generated code declares each agent kind once, from a spec whose one-way
// message handlers are a table (messages are data, see AgentMessage), and
// wraps AgentRef (declared in herald/agent.hpp, its host calls defined
// here) in a typed handle:
//
//   const herald::AgentKind<Order::State>& Order::kind() {
//     static const herald::AgentKind<State> kind({.context = "commerce.order",
//     .name = "Order", ...}); return kind;
//   }
//   void Order::markPaid(InternalCaller, AuthId authId) {
//     ref_.call("markPaid", [&](herald::Invocation& tx, State& s) { ... });
//   }
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "herald/agent.hpp"
#include "herald/agent_message.hpp"
#include "herald/errors.hpp"
#include "herald/executor.hpp"
#include "herald/invocation.hpp"

namespace herald {

template <class State>
struct Invariant {
  std::string_view name;
  bool (*holds)(const State&);
};

template <class State>
struct MessageHandler {
  std::string_view name;  // "systemMessage"
  // Decodes `args` (the handler's encoded argument struct) and runs the body
  // on the working state of the held agent whose key text is `key`. Throws
  // on malformed args (a fault).
  void (*run)(Invocation& tx, State& state, std::string_view key,
              const nlohmann::json& args);
};

template <class State>
struct AgentKindSpec {
  std::string context;             // "commerce.order"
  std::string name;                // "Order"
  std::int64_t state_version = 1;  // the state schema's version
  // The stores' initialisers (State need not be default-constructible).
  State (*initial)() = nullptr;
  nlohmann::json (*encode_state)(const State&) = nullptr;
  State (*decode_state)(const nlohmann::json&,
                        std::int64_t state_version) = nullptr;
  std::vector<Invariant<State>> invariants;
  std::vector<MessageHandler<State>> handlers;
};

// One agent instance: an actor whose mailbox holds one-way messages, and
// which a host call can also enter directly (on the host's thread) when no
// message is running. Either way, one invocation at a time.
class AgentInstanceBase : public Actor {
 public:
  AgentInstanceBase(Runtime& rt, Executor& executor, const AgentKindBase& kind,
                    std::string key, InvocationSite site);

  const AgentKindBase& kind() const { return kind_; }
  const std::string& key() const { return key_; }
  const InvocationSite& site() const { return site_; }

  // Host side: waits until no invocation runs, then holds the agent.
  void acquire();
  void release();
  // Queues a message; runs later on the executor.
  void post(AgentMessage message);
  // Runs the oldest message. A fault in it becomes a retry or a dead
  // message (detail::run_message); nothing escapes.
  void run() override;
  // Puts `message` back at the head of the mailbox, where the mailbox runs
  // nothing until resume(): a message that met a node that cannot commit
  // (FaultClass::unavailable) keeps the agent's later messages behind it.
  void hold(AgentMessage message);
  // Ends hold(): the mailbox runs again, its held message first.
  void resume();
  // Nothing runs, is queued or waits in the mailbox: the runtime may drop
  // the instance from its cache (the state is in the store).
  bool idle();

 private:
  Runtime& runtime_;
  Executor& executor_;
  const AgentKindBase& kind_;
  std::string key_;
  InvocationSite site_;
  std::mutex mutex_;
  std::condition_variable free_;
  std::deque<AgentMessage> mailbox_;
  bool running_ = false;
  bool queued_ = false;
  bool held_ = false;  // hold(): the mailbox waits for resume()
};

template <class State>
class AgentInstance final : public AgentInstanceBase {
 public:
  using AgentInstanceBase::AgentInstanceBase;
  // Committed state; read and replaced only while the agent is held.
  std::shared_ptr<const State> state;
};

namespace detail {
// Runtime services the agent templates need; defined in the runtime's
// sources (runtime_detail.cpp).
std::shared_ptr<AgentInstanceBase> find_agent(Runtime& rt,
                                              const AgentKindBase& kind,
                                              std::string_view key);
std::shared_ptr<const void> load_agent_state(Runtime& rt,
                                             const AgentInstanceBase& agent);
void commit_agent(Runtime& rt, Invocation& tx, AgentInstanceBase& agent,
                  std::shared_ptr<const void> state);
// Runs one message on a held agent: skips a message already consumed, and
// turns a fault into a retry (with backoff) or a dead message.
void run_message(Runtime& rt, AgentInstanceBase& agent, AgentMessage& message);
// Reports the fault and discards what the invocation staged.
void abort_invocation(Runtime& rt, Invocation& tx, std::string_view message);
// Reports a message naming a handler its agent's kind does not have.
void report_unknown_handler(Runtime& rt, const AgentInstanceBase& agent,
                            const AgentMessage& message);
void check_handler_fault_injection(Runtime& rt, Invocation& tx);
// Before a host call named `call`: refuses it after shutdown, and runs
// recovery if the host has not.
void note_host_call(Runtime& rt, std::string_view call);
void note_state_read(Runtime& rt);
// Refuses a kind built from an incomplete spec; `what` says what is wrong.
[[noreturn]] void bad_agent_kind(const AgentKindBase& kind,
                                 std::string_view what);
}  // namespace detail

template <class State>
class AgentKind final : public AgentKindBase {
 public:
  // Throws RegistrationError if a codec function or the initialiser is
  // missing, or two handlers share a name.
  explicit AgentKind(AgentKindSpec<State> spec)
      : AgentKindBase(std::move(spec.context), std::move(spec.name),
                      spec.state_version),
        initial_(spec.initial),
        encode_(spec.encode_state),
        decode_(spec.decode_state),
        invariants_(std::move(spec.invariants)),
        handlers_(std::move(spec.handlers)) {
    if (initial_ == nullptr) detail::bad_agent_kind(*this, "no initial state");
    if (encode_ == nullptr || decode_ == nullptr) {
      detail::bad_agent_kind(*this, "no state codec");
    }
    for (std::size_t i = 0; i < handlers_.size(); ++i) {
      if (handlers_[i].run == nullptr) {
        detail::bad_agent_kind(*this, "a message handler without a body");
      }
      for (std::size_t j = 0; j < i; ++j) {
        if (handlers_[j].name == handlers_[i].name) {
          detail::bad_agent_kind(*this, "two message handlers named '" +
                                            std::string(handlers_[i].name) +
                                            "'");
        }
      }
    }
  }

  State initial() const { return initial_(); }

  std::optional<std::string_view> violated(const State& s) const {
    for (const Invariant<State>& inv : invariants_) {
      if (!inv.holds(s)) return inv.name;
    }
    return std::nullopt;
  }

  // nullptr if the kind has no handler of that name.
  const MessageHandler<State>* handler(std::string_view name) const {
    for (const MessageHandler<State>& h : handlers_) {
      if (h.name == name) return &h;
    }
    return nullptr;
  }

  nlohmann::json encode_state(const void* state) const override {
    return encode_(*static_cast<const State*>(state));
  }
  std::shared_ptr<const void> decode_state(
      const nlohmann::json& encoded,
      std::int64_t state_version) const override {
    return std::make_shared<const State>(decode_(encoded, state_version));
  }

  std::shared_ptr<AgentInstanceBase> make_instance(
      Runtime& rt, Executor& executor, std::string key,
      InvocationSite site) const override {
    return std::make_shared<AgentInstance<State>>(rt, executor, *this,
                                                  std::move(key), site);
  }
  std::optional<MessageFault> run_message(
      Runtime& rt, AgentInstanceBase& agent,
      const AgentMessage& message) const override;

 private:
  State (*initial_)();
  nlohmann::json (*encode_)(const State&);
  State (*decode_)(const nlohmann::json&, std::int64_t);
  std::vector<Invariant<State>> invariants_;
  std::vector<MessageHandler<State>> handlers_;
};

namespace detail {

template <class State>
std::shared_ptr<AgentInstance<State>> instance(Runtime& rt,
                                               const AgentKind<State>& kind,
                                               std::string_view key) {
  return std::static_pointer_cast<AgentInstance<State>>(
      find_agent(rt, kind, key));
}

template <class State>
const State& current_state(Runtime& rt, AgentInstance<State>& agent) {
  if (!agent.state) {
    auto stored = load_agent_state(rt, agent);
    // Instances of AgentKind<State> are made only by that kind.
    const auto& kind = static_cast<const AgentKind<State>&>(agent.kind());
    agent.state = stored ? std::static_pointer_cast<const State>(stored)
                         : std::make_shared<const State>(kind.initial());
  }
  return *agent.state;
}

// Runs one invocation on a held agent: a copy of the state is the working
// set; it replaces the committed state only if the body, every invariant
// and the commit succeed. `consumed` is the message the invocation runs.
template <class State, class Body>
auto invoke(Runtime& rt, const AgentKind<State>& kind,
            AgentInstance<State>& agent, std::string_view handler,
            const Cause& cause, Body& body,
            const MessageId* consumed = nullptr) {
  using R = std::invoke_result_t<Body&, Invocation&, State&>;
  Invocation tx(rt, agent.site(), handler, cause);
  if (consumed != nullptr) tx.consume_message(*consumed);
  try {
    State working = current_state(rt, agent);
    auto finish = [&] {
      if (auto inv = kind.violated(working)) {
        throw HandlerFailure("invariant '" + std::string(*inv) +
                             "' does not hold");
      }
      check_handler_fault_injection(rt, tx);
      auto next = std::make_shared<const State>(std::move(working));
      commit_agent(rt, tx, agent, next);
      // The cache changes only once the store has the state.
      agent.state = std::move(next);
    };
    if constexpr (std::is_void_v<R>) {
      body(tx, working);
      finish();
    } else {
      R result = body(tx, working);
      finish();
      return result;
    }
  } catch (const MalformedMessage& e) {
    abort_invocation(rt, tx, e.what());
    throw;
  } catch (const NewerAgentState& e) {
    abort_invocation(rt, tx, e.what());
    throw;
  } catch (const std::exception& e) {
    abort_invocation(rt, tx, e.what());
    throw HandlerFault(tx.handler_name(), e.what(), fault_kind(e));
  } catch (...) {
    abort_invocation(rt, tx, "unknown exception");
    throw HandlerFault(tx.handler_name(), "unknown exception");
  }
}
}  // namespace detail

// D9: a message's key or one of its arguments, decoded by `decode` (in the
// generated message table); any failure is a MalformedMessage.
template <class Decode>
auto decode_message(Decode&& decode) -> decltype(decode()) {
  try {
    return decode();
  } catch (const std::exception& e) {
    throw MalformedMessage(e.what());
  }
}

template <class State>
std::optional<typename AgentKindBase::MessageFault>
AgentKind<State>::run_message(Runtime& rt, AgentInstanceBase& base,
                              const AgentMessage& message) const {
  auto& agent = static_cast<AgentInstance<State>&>(base);
  const MessageHandler<State>* h = handler(message.handler);
  if (h == nullptr) {
    detail::report_unknown_handler(rt, agent, message);
    return MessageFault{"agent " + qualified() + " has no message handler '" +
                            message.handler + "'",
                        false, FaultKind::unknown_kind};
  }
  auto body = [&](Invocation& tx, State& s) {
    h->run(tx, s, agent.key(), message.args);
  };
  try {
    detail::invoke(rt, *this, agent, h->name, message.cause, body, &message.id);
  } catch (const MalformedMessage& e) {
    return MessageFault{e.what(), true, FaultKind::malformed};
  } catch (const NewerAgentState& e) {
    return MessageFault{e.what(), false, FaultKind::newer_state};
  } catch (const HandlerFault& fault) {
    // Already reported by invoke; the caller retries or dead-letters it.
    return MessageFault{fault.fault(), false, fault.kind()};
  } catch (const std::exception& e) {
    return MessageFault{e.what(), false, fault_kind(e)};
  }
  return std::nullopt;
}

// Holds an agent for the scope of a host call or a message run.
class HeldAgent {
 public:
  explicit HeldAgent(AgentInstanceBase& agent) : agent_(agent) {
    agent_.acquire();
  }
  // For a run that already holds it (the mailbox's): only releases.
  struct Adopt {};
  HeldAgent(AgentInstanceBase& agent, Adopt) : agent_(agent) {}
  ~HeldAgent() { agent_.release(); }
  HeldAgent(const HeldAgent&) = delete;
  HeldAgent& operator=(const HeldAgent&) = delete;

 private:
  AgentInstanceBase& agent_;
};

template <class State>
template <class Body>
auto AgentRef<State>::call(std::string_view handler, Body&& body) {
  if (detail::running_invocation() != nullptr) {
    detail::refuse_host_call(kind_->qualified() + "." + std::string(handler));
  }
  detail::note_host_call(*rt_, handler);
  auto agent = detail::instance(*rt_, *kind_, key_);
  HeldAgent held(*agent);
  return detail::invoke(*rt_, *kind_, *agent, handler, Cause{}, body);
}

template <class State>
State AgentRef<State>::state() const {
  if (detail::running_invocation() != nullptr) {
    detail::refuse_host_call("the state of " + kind_->qualified() + " " + key_);
  }
  // A read of committed state runs no handler and queues nothing: it is
  // allowed after shutdown too.
  detail::note_state_read(*rt_);
  auto agent = detail::instance(*rt_, *kind_, key_);
  HeldAgent held(*agent);
  return detail::current_state(*rt_, *agent);
}

}  // namespace herald
