#pragma once
// Services without `from`: stateless adapters whose `on call` handlers the
// host calls. Each call is one transaction, like an agent handler without
// state; the service's qualified name is the publisherId of what it emits.
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

#include "herald/agent.hpp"  // detail::abort_invocation, detail::check_handler_fault_injection
#include "herald/errors.hpp"
#include "herald/invocation.hpp"

namespace herald {

namespace detail {
const InvocationSite& service_site(Runtime& rt, std::string_view service);
void commit_service(Runtime& rt, Invocation& tx);
}  // namespace detail

class ServiceRef {
 public:
  // Throws RegistrationError if no installed context declared the service.
  ServiceRef(Runtime& rt, std::string_view service)
      : rt_(&rt), site_(&detail::service_site(rt, service)) {}

  // Runs the handler on the caller's thread. Returns the body's result; a
  // fault throws HandlerFault and commits nothing. Made from inside a
  // handler, throws ReentrantCallError.
  template <class Body>
  auto call(std::string_view handler, Body&& body) {
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

 private:
  Runtime* rt_;
  const InvocationSite* site_;
};

}  // namespace herald
