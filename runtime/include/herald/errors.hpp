#pragma once
// Every error the runtime raises to a host or a handler derives from
// herald::Error, so hosts can catch one type; the subclasses tell what broke.
#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

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

// The backend cannot commit for this node now, through no fault of the
// work: a nats node whose lease of a hosted context lapsed (or was taken by
// another node) commits nothing until it holds the lease again. Nothing is
// applied; a delivery or message waits and runs again later without the
// wait counting as an attempt (FaultClass::unavailable).
class Unavailable : public CommitError {
 public:
  using CommitError::CommitError;
};

// A host call made after Runtime::shutdown.
class ShutdownError : public Error {
 public:
  using Error::Error;
};

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

// Fault text as the runtime keeps it (a HandlerFault's message, a log
// field, a dead letter's reason, a pending attempt's last error): `raw` with
// every byte sequence that is not valid UTF-8 replaced by U+FFFD, and at
// most kFaultTextMaxBytes long (cut at a character boundary and ending in
// "..." then). Whatever a host's exception carries, the text can be logged
// as JSON and stored. Defined in text.cpp.
inline constexpr std::size_t kFaultTextMaxBytes = 4096;
std::string fault_text(std::string_view raw);
// The byte offset of the first invalid UTF-8 sequence in `s`, or npos.
std::size_t invalid_utf8_at(std::string_view s);

// What went wrong in a handler, by the runtime's own error types. The class
// of a kind decides what a delivery or message that faulted with it does
// next (see fault_class).
enum class FaultKind {
  limit,                 // LimitError: a D10 limit (cascade depth, payload)
  ownership,             // OwnershipError
  registration,          // RegistrationError: an undeclared agent or capability
  reentrant,             // ReentrantCallError
  malformed,             // MalformedMessage, a payload that does not decode
  invalid_text,          // InvalidText: a String that is not valid UTF-8
  refinement,            // RefinementError
  unknown_kind,          // a message for a handler or kind this build lacks
  newer_state,           // NewerAgentState: state a newer build wrote
  configuration,         // ConfigError
  handler_failure,       // HandlerFailure: `fail(...)` in Herald source
  idempotency_conflict,  // IdempotencyConflict
  commit,                // CommitError: the store could not commit
  unavailable,           // Unavailable: the node cannot commit now
  shutdown,              // ShutdownError
  host,                  // anything else: a host capability, the system
};

enum class FaultClass {
  // Would fail the same way again: dead-lettered at once, with its reason.
  deterministic,
  // May pass on a later attempt: retried with backoff up to
  // retry.max_attempts, then dead-lettered.
  transient,
  // Not the work's fault: the node cannot commit now. Tried again after a
  // growing, capped backoff for as long as that lasts, without counting as
  // an attempt; never dead-lettered for it.
  unavailable,
};

constexpr FaultClass fault_class(FaultKind kind) {
  switch (kind) {
    case FaultKind::limit:
    case FaultKind::ownership:
    case FaultKind::registration:
    case FaultKind::reentrant:
    case FaultKind::malformed:
    case FaultKind::invalid_text:
    case FaultKind::refinement:
    case FaultKind::unknown_kind:
    case FaultKind::newer_state:
    case FaultKind::configuration:
      return FaultClass::deterministic;
    case FaultKind::handler_failure:
    case FaultKind::idempotency_conflict:
    case FaultKind::commit:
    case FaultKind::shutdown:
    case FaultKind::host:
      return FaultClass::transient;
    case FaultKind::unavailable:
      return FaultClass::unavailable;
  }
  return FaultClass::transient;
}

// "limit", "reentrant", ...: the kind as log lines name it.
constexpr std::string_view fault_kind_name(FaultKind kind) {
  switch (kind) {
    case FaultKind::limit:
      return "limit";
    case FaultKind::ownership:
      return "ownership";
    case FaultKind::registration:
      return "registration";
    case FaultKind::reentrant:
      return "reentrant";
    case FaultKind::malformed:
      return "malformed";
    case FaultKind::invalid_text:
      return "invalid_text";
    case FaultKind::refinement:
      return "refinement";
    case FaultKind::unknown_kind:
      return "unknown_kind";
    case FaultKind::newer_state:
      return "newer_state";
    case FaultKind::configuration:
      return "configuration";
    case FaultKind::handler_failure:
      return "handler_failure";
    case FaultKind::idempotency_conflict:
      return "idempotency_conflict";
    case FaultKind::commit:
      return "commit";
    case FaultKind::unavailable:
      return "unavailable";
    case FaultKind::shutdown:
      return "shutdown";
    case FaultKind::host:
      return "host";
  }
  return "host";
}

// What a host call sees when the handler it called faulted: the handler's
// qualified name, the fault message (as fault_text keeps it) and its kind.
// Nothing of the invocation committed.
// Text that is not valid UTF-8 where the runtime takes a String in (a
// message's arguments, a stored value): the message names where, and the
// handler that made it faults alone.
class InvalidText : public Error {
 public:
  using Error::Error;
};

// Bytes that herald::decode (herald/bytes.hpp) cannot turn into the event
// asked for. The message names the event type and what broke; `kind` says
// which of three things it was.
class DecodeError : public Error {
 public:
  enum class Kind {
    syntax,      // not one JSON value (empty, cut short, trailing bytes,
                 // text that is not valid UTF-8)
    shape,       // JSON, but not the event's form: a field missing or of
                 // another type, a variant the type does not have
    refinement,  // a value that breaks its opaque or refined type's `where`
  };
  DecodeError(Kind kind, const std::string& message)
      : Error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

class HandlerFault : public Error {
 public:
  HandlerFault(std::string handler, std::string_view message,
               FaultKind kind = FaultKind::host)
      : HandlerFault(std::move(handler), fault_text(message), kind, 0) {}
  const std::string& handler() const { return handler_; }
  const std::string& fault() const { return message_; }
  FaultKind kind() const { return kind_; }

 private:
  HandlerFault(std::string handler, std::string message, FaultKind kind, int)
      : Error(handler + ": " + message),
        handler_(std::move(handler)),
        message_(std::move(message)),
        kind_(kind) {}
  std::string handler_;
  std::string message_;
  FaultKind kind_;
};

// The kind of a caught exception: the runtime's error type it is, else
// host. A HandlerFault keeps the kind of the fault it reports.
inline FaultKind fault_kind(const std::exception& e) {
  if (const auto* f = dynamic_cast<const HandlerFault*>(&e)) return f->kind();
  if (dynamic_cast<const LimitError*>(&e) != nullptr) return FaultKind::limit;
  if (dynamic_cast<const OwnershipError*>(&e) != nullptr)
    return FaultKind::ownership;
  if (dynamic_cast<const RegistrationError*>(&e) != nullptr)
    return FaultKind::registration;
  if (dynamic_cast<const ReentrantCallError*>(&e) != nullptr)
    return FaultKind::reentrant;
  if (dynamic_cast<const MalformedMessage*>(&e) != nullptr)
    return FaultKind::malformed;
  if (dynamic_cast<const NewerAgentState*>(&e) != nullptr)
    return FaultKind::newer_state;
  if (dynamic_cast<const InvalidText*>(&e) != nullptr)
    return FaultKind::invalid_text;
  if (dynamic_cast<const RefinementError*>(&e) != nullptr)
    return FaultKind::refinement;
  if (dynamic_cast<const ConfigError*>(&e) != nullptr)
    return FaultKind::configuration;
  if (dynamic_cast<const HandlerFailure*>(&e) != nullptr)
    return FaultKind::handler_failure;
  if (dynamic_cast<const IdempotencyConflict*>(&e) != nullptr)
    return FaultKind::idempotency_conflict;
  // An Unavailable is a CommitError of its own class.
  if (dynamic_cast<const Unavailable*>(&e) != nullptr)
    return FaultKind::unavailable;
  if (dynamic_cast<const CommitError*>(&e) != nullptr) return FaultKind::commit;
  if (dynamic_cast<const ShutdownError*>(&e) != nullptr)
    return FaultKind::shutdown;
  return FaultKind::host;
}

}  // namespace herald
