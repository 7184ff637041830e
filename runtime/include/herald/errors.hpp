#pragma once
// Every error the runtime raises to a host or a handler derives from
// herald::Error, so hosts can catch one type; the subclasses tell what broke.
#include <stdexcept>
#include <string>

namespace herald {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad configuration: unknown key, malformed value. The message names the key
// and where the value came from.
class ConfigError : public Error {
 public:
  using Error::Error;
};

// A context, agent or subscription that cannot be installed as declared.
class RegistrationError : public Error {
 public:
  using Error::Error;
};

// A D10 limit was hit. Raised inside the offending handler, so the handler
// aborts and nothing it did is committed or released.
class LimitError : public Error {
 public:
  using Error::Error;
};

// An event released for a context that does not own its type (D10).
class OwnershipError : public Error {
 public:
  using Error::Error;
};

// `fail("...")` in Herald source. Generated code throws it through
// Invocation::fail.
class HandlerFailure : public Error {
 public:
  using Error::Error;
};

// A value that does not satisfy its refined or opaque type's `where`
// predicate: built by generated code at run time, decoded from a payload,
// or passed in by the host. The message names the type, the predicate and
// the value.
class RefinementError : public Error {
 public:
  using Error::Error;
};

// A host call (an agent or service handler, an agent's state, a publish)
// made from inside a running handler. A handler reaches another agent with a
// one-way message (a `Ref` call), never with a host call, which would wait
// for an agent that may be waiting for it.
class ReentrantCallError : public Error {
 public:
  using Error::Error;
};

// Idempotency.seen of a key that another running invocation of the same
// scope checked and may be acting on: the handler aborts, and a delivery or
// message retries it once the other has committed or aborted.
class IdempotencyConflict : public Error {
 public:
  using Error::Error;
};

// The backend could not commit: nothing of the invocation is applied, and a
// delivery or message retries it.
class CommitError : public Error {
 public:
  using Error::Error;
};

// A host call made after Runtime::shutdown.
class ShutdownError : public Error {
 public:
  using Error::Error;
};

// What a host call sees when the handler it called faulted: the handler's
// qualified name and the fault message. Nothing of the invocation committed.
// A stored agent message whose key or arguments do not decode through the
// receiving handler's codec (D9). Generated code raises it while decoding,
// before the handler runs; the runtime dead-letters the message with
// "malformed: ..." at once instead of retrying it.
class MalformedMessage : public Error {
 public:
  using Error::Error;
};

// Stored agent state written by a newer build (a state version above the
// one this build's agent kind reads). The state is kept as it is: a host
// call or a state read on that agent raises this, and a message to it is
// dead-lettered at once with this message as its reason.
class NewerAgentState : public Error {
 public:
  using Error::Error;
};

class HandlerFault : public Error {
 public:
  HandlerFault(std::string handler, std::string message)
      : Error(handler + ": " + message),
        handler_(std::move(handler)),
        message_(std::move(message)) {}
  const std::string& handler() const { return handler_; }
  const std::string& fault() const { return message_; }

 private:
  std::string handler_;
  std::string message_;
};

}  // namespace herald
