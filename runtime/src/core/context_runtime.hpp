#pragma once
// Internal: one installed context as the runtime keeps it.
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "context_router.hpp"
#include "herald/context.hpp"
#include "herald/invocation.hpp"
#include "herald/local_store.hpp"

namespace herald {

class AgentKindBase;

struct ContextRuntime {
  std::string name;
  // A context another process hosts, installed here as the mirror of its
  // log for the subscriptions that take its events
  // (Transport::attach_mirror): nothing here emits or publishes to it.
  bool mirror = false;
  ContextLog* log = nullptr;
  // The runtime's side of its delivery, and the transport's publication of
  // its log (woken after each commit that appends to it).
  std::unique_ptr<ContextRouter> router;
  std::unique_ptr<Publication> publication;
  std::vector<const EventType*> owned;
  // Invocation sites of this context's services, by service name; std::map
  // keeps the sites (and the string_views into them) in place.
  std::map<std::string, InvocationSite, std::less<>> service_sites;
  // The user capabilities its handlers reach, by qualified name.
  std::map<std::string, CapabilitySpec, std::less<>> capabilities;
  // The agent kinds its handlers may send messages to: its own and those it
  // declared with Context::uses_agent, when installed here ...
  std::vector<const AgentKindBase*> message_targets;
  // ... or when the transport carries messages to the process hosting
  // their context (Transport::carries_messages_to): qualified names.
  std::vector<std::string> carried_targets;
};

// The context of an agent kind's qualified name ("chat.rooms" of
// "chat.rooms.Room").
std::string_view agent_context(std::string_view agent_kind);

namespace detail {
// An emptied outbox vector with its capacity, kept per thread: each
// invocation that emits would otherwise allocate its own and free it at
// commit. take_spare_outbox fills `out` (empty, no capacity) from the spare;
// recycle_outbox gives an emptied vector back.
void take_spare_outbox(std::vector<OutboxEvent>& out);
void recycle_outbox(std::vector<OutboxEvent>& used);
}  // namespace detail

}  // namespace herald
