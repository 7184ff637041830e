#pragma once
// Services without `from`: stateless adapters whose `on call` handlers the
// host calls. Each call is one transaction, like an agent handler without
// state; the service's qualified name is the publisherId of what it emits.
// ServiceRef is declared in herald/service_ref.hpp; its call() is here.
//
//   class Checkout {
//    public:
//     static Checkout in(herald::Runtime& rt) { return
//     Checkout(herald::ServiceRef(rt, "commerce.order.Checkout")); } void
//     submit(OrderId id) { ref_.call("submit", [&](herald::Invocation& tx) {
//     ... }); }
//   };
#include <string>
#include <string_view>
#include <type_traits>

#include "herald/agent_kind.hpp"  // detail::abort_invocation, detail::check_handler_fault_injection
#include "herald/errors.hpp"
#include "herald/invocation.hpp"
#include "herald/service_ref.hpp"

namespace herald {

namespace detail {
const InvocationSite& service_site(Runtime& rt, std::string_view service);
void commit_service(Runtime& rt, Invocation& tx);
}  // namespace detail

template <class Body>
auto ServiceRef::call(std::string_view handler, Body&& body) {
  using R = std::invoke_result_t<Body&, Invocation&>;
  if (detail::running_invocation() != nullptr) {
    detail::refuse_host_call(std::string(site_->owner) + "." +
                             std::string(handler));
  }
  detail::note_host_call(*rt_, site_->owner);
  Invocation tx(*rt_, *site_, handler, Cause{});
  try {
    if constexpr (std::is_void_v<R>) {
      body(tx);
      detail::check_handler_fault_injection(*rt_, tx);
      detail::commit_service(*rt_, tx);
    } else {
      R result = body(tx);
      detail::check_handler_fault_injection(*rt_, tx);
      detail::commit_service(*rt_, tx);
      return result;
    }
  } catch (const std::exception& e) {
    detail::abort_invocation(*rt_, tx, e.what());
    throw HandlerFault(tx.handler_name(), e.what());
  } catch (...) {
    detail::abort_invocation(*rt_, tx, "unknown exception");
    throw HandlerFault(tx.handler_name(), "unknown exception");
  }
}

}  // namespace herald
