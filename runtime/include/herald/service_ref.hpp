#pragma once
// ServiceRef: a host's handle on a host-callable service, as generated
// headers hold it (`herald::ServiceRef ref_`). Only declared here, with what
// it names, so that a generated header parses neither the runtime nor
// nlohmann's JSON; the body of call() is in herald/service.hpp, which the
// generated source includes.
#include <string_view>

namespace herald {

class Runtime;
class Invocation;
struct InvocationSite;

class ServiceRef {
 public:
  // Throws RegistrationError if no installed context declared the service.
  ServiceRef(Runtime& rt, std::string_view service);

  // Runs the handler on the caller's thread. Returns the body's result; a
  // fault throws HandlerFault and commits nothing. Made from inside a
  // handler, throws ReentrantCallError.
  template <class Body>
  auto call(std::string_view handler, Body&& body);

 private:
  Runtime* rt_;
  const InvocationSite* site_;
};

}  // namespace herald
