#pragma once
// Agents as a generated header and a store see them, without parsing the
// runtime or nlohmann's JSON: AgentKindBase (what the runtime and a durable
// backend need of a kind without knowing its state type) and the host's
// handle AgentRef<State>, whose call() and state() are defined, with the
// typed kind AgentKind<State>, in herald/agent_kind.hpp (which the
// generated source includes).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json_fwd.hpp>

namespace herald {

class AgentInstanceBase;
class Executor;
class Invocation;
class Runtime;
struct AgentMessage;
struct InvocationSite;
template <class State>
class AgentKind;

// What the runtime and a durable backend need of an agent kind without
// knowing its state type.
class AgentKindBase {
 public:
  AgentKindBase(std::string context, std::string name,
                std::int64_t state_version);
  virtual ~AgentKindBase() = default;
  AgentKindBase(const AgentKindBase&) = delete;
  AgentKindBase& operator=(const AgentKindBase&) = delete;

  const std::string& context() const { return context_; }
  const std::string& name() const { return name_; }
  // "commerce.order.Order"
  const std::string& qualified() const { return qualified_; }
  std::uint32_t index() const { return index_; }
  // The version of the state schema that encode_state writes.
  std::int64_t state_version() const { return state_version_; }

  // Throws NewerAgentState when the stored state of the instance `key`,
  // written at `state_version`, is newer than this build reads; `where`
  // (the store's path, or empty) prefixes the message.
  void check_state_version(std::string_view where, std::string_view key,
                           std::int64_t state_version) const;

  // `state` points to a State of this kind.
  virtual nlohmann::json encode_state(const void* state) const = 0;
  // A State of this kind, decoded from what encode_state wrote at
  // `state_version` (any version up to state_version(): stores added since
  // take their initialisers). Throws on a malformed document; a store
  // calls check_state_version first, so a newer version is refused as
  // such.
  virtual std::shared_ptr<const void> decode_state(
      const nlohmann::json& encoded, std::int64_t state_version) const = 0;

  // The runtime's side: a new instance, and one message run on a held
  // instance of this kind. run_message never throws: it returns the fault
  // (an unknown handler, a failing body or commit; `malformed` when the key
  // or the arguments did not decode), or nullopt once the message's
  // invocation committed.
  virtual std::shared_ptr<AgentInstanceBase> make_instance(
      Runtime& rt, Executor& executor, std::string key,
      InvocationSite site) const = 0;
  struct MessageFault {
    std::string message;
    bool malformed = false;  // D9: dead-lettered at once, never retried
    // The agent's stored state is newer than this build reads
    // (NewerAgentState): dead-lettered at once with `message` as the
    // reason, never retried.
    bool newer_state = false;
  };
  virtual std::optional<MessageFault> run_message(
      Runtime& rt, AgentInstanceBase& agent,
      const AgentMessage& message) const = 0;

 private:
  std::string context_;
  std::string name_;
  std::string qualified_;
  std::uint32_t index_;
  std::int64_t state_version_;
};

template <class State>
class AgentRef {
 public:
  AgentRef(Runtime& rt, const AgentKind<State>& kind, std::string key)
      : rt_(&rt), kind_(&kind), key_(std::move(key)) {}

  // A host call: runs the handler now, on the caller's thread, once the agent
  // is free. Returns the body's result; a fault throws HandlerFault and
  // commits nothing. Made from inside a handler, throws ReentrantCallError.
  template <class Body>
  auto call(std::string_view handler, Body&& body);

  // The committed state, read while holding the agent. Made from inside a
  // handler, throws ReentrantCallError.
  State state() const;

  const std::string& key() const { return key_; }

 private:
  Runtime* rt_;
  const AgentKind<State>* kind_;
  std::string key_;
};

}  // namespace herald
