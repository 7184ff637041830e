// The runtime services that herald/agent_kind.hpp's and herald/service.hpp's
// templates call (namespace detail), and ServiceRef's constructor: each
// reaches the implementation through Runtime::impl().
#include <fmt/format.h>

#include "herald/agent_kind.hpp"
#include "herald/errors.hpp"
#include "herald/fault_injector.hpp"
#include "herald/service.hpp"
#include "runtime_impl.hpp"

namespace herald {

namespace detail {

std::shared_ptr<AgentInstanceBase> find_agent(Runtime& rt,
                                              const AgentKindBase& kind,
                                              std::string_view key) {
  return rt.impl().find_agent(kind, key);
}

void run_message(Runtime& rt, AgentInstanceBase& agent, AgentMessage& message) {
  rt.impl().run_message(agent, message);
}

std::shared_ptr<const void> load_agent_state(Runtime& rt,
                                             const AgentInstanceBase& agent) {
  return rt.impl().load_agent_state(agent);
}

void commit_agent(Runtime& rt, Invocation& tx, AgentInstanceBase& agent,
                  std::shared_ptr<const void> state) {
  CommitRecord record;
  record.state = CommitRecord::StateWrite{
      &agent.kind(), agent.kind().qualified(), agent.key(), std::move(state)};
  rt.impl().commit(tx, record);
}

void abort_invocation(Runtime& rt, Invocation& tx, std::string_view message) {
  nlohmann::json line{{"event", "handler.fault"},
                      {"handler", tx.handler_name()},
                      {"message", fault_text(message)}};
  // A one-way message run on behalf of a delivery names the event behind it.
  if (const auto& cause = tx.cause(); cause.causation) {
    line["eventId"] = cause.causation->str();
    line["correlationId"] = cause.correlation.str();
  }
  rt.impl().abort(tx, std::move(line));
}

void report_unknown_handler(Runtime& rt, const AgentInstanceBase& agent,
                            const AgentMessage& message) {
  Invocation tx(rt, agent.site(), message.handler, message.cause);
  abort_invocation(rt, tx,
                   fmt::format("agent {} has no message handler '{}'",
                               agent.kind().qualified(), message.handler));
}

void check_handler_fault_injection(Runtime& rt, Invocation& tx) {
  FaultInjector* faults = rt.executor().faults();
  if (faults == nullptr) return;
  if (auto injected = faults->on_handler_exit(tx.handler_name()))
    throw HandlerFailure(*injected);
}

void note_host_call(Runtime& rt, std::string_view call) {
  rt.impl().check_open(call);
  rt.impl().ensure_recovered();
}

void note_state_read(Runtime& rt) { rt.impl().ensure_recovered(); }

const InvocationSite& service_site(Runtime& rt, std::string_view service) {
  return rt.impl().service_site(service);
}

void commit_service(Runtime& rt, Invocation& tx) {
  CommitRecord record;
  rt.impl().commit(tx, record);
}

}  // namespace detail

ServiceRef::ServiceRef(Runtime& rt, std::string_view service)
    : rt_(&rt), site_(&detail::service_site(rt, service)) {}

}  // namespace herald
