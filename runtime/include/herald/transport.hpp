#pragma once
// The transport half of the storage seam: how logged events reach
// subscriptions (publish from the log) and what a subscription's consumer
// reports about them (ack, nak, term) and keeps (dead letters).
//
// Publish: at install the runtime attaches each publishing context's log to
// the transport with a Router, the runtime's side of delivery: it matches an
// entry against the subscriptions (pattern, `via`, start position) and
// queues it in the lanes of each one that takes it. After a commit appends
// to the log the runtime wakes the context's Publication; the transport
// takes the new entries from the log to the Router, in log order. Both local
// backends (memory, sqlite) attach the in-process publication
// (make_local_publication: a fan-out actor per context); a broker transport
// relays the log to the broker and hands what its consumers receive to the
// Router.
//
// Consume: per (subscription, publisher id) the highest sequence
// acknowledged (ack), the attempts of a delivery that faulted (nak) and the
// dead letters (term), kept in a SubscriptionStore. Publisher ids are
// strings everywhere the seam stores them: a restarted runtime must find the
// same cursors and sequences.
//
// Concurrency: every method may be called from any worker thread;
// implementations lock accordingly.
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "herald/dead_letter_policy.hpp"
#include "herald/envelope.hpp"
#include "herald/log_entry.hpp"
#include "herald/time.hpp"

namespace herald {

class ContextLog;
class Executor;
struct AgentMessage;

struct DeadLetter {
  std::string subscription;
  LogEntryPtr event;  // envelope and payload, kept for inspection and re-drive
  std::uint32_t attempts = 0;
  std::string last_error;
  Instant first_attempt_at{};
  Instant last_attempt_at{};
  Instant dead_lettered_at{};
  // A re-drive was asked for and has not committed yet: the letter stays
  // until the re-driven delivery commits (the commit removes it), so a crash
  // in between re-drives it again after the restart.
  bool redriving = false;
  // Written under `halt`: the publisher's lane on the subscription waits
  // until the letter is re-driven and commits, or is skipped.
  DeadLetterPolicy policy = DeadLetterPolicy::skip;
};

// A delivery that faulted and waits for its next attempt (nak).
struct PendingAttempt {
  std::uint32_t attempts = 0;  // made so far
  std::string last_error;
  Instant first_attempt_at{};
  Instant retry_at{};
};

// The transport's records for one subscription.
class SubscriptionStore {
 public:
  virtual ~SubscriptionStore() = default;
  // D6: has a delivery of this event committed here? Exact: deliveries of
  // one publisher commit in sequence order (D7).
  virtual bool recorded(std::string_view publisher, std::int64_t sequence) = 0;
  // Where the subscription starts in its publishing context's log: entries
  // at or below this position are never delivered to it. The first call in
  // a store that has never seen the subscription records `context` and
  // `start_if_new` (at `now`); every later call returns what was recorded.
  virtual std::int64_t start_position(std::string_view context,
                                      std::int64_t start_if_new,
                                      Instant now) = 0;
  // Highest sequence of `publisher` acknowledged (delivered, deduplicated or
  // dead-lettered) here; 0 if none.
  virtual std::int64_t acknowledged(std::string_view publisher) = 0;
  // `position`: the entry's log position, kept as the highest acknowledged.
  virtual void acknowledge(std::string_view publisher, std::int64_t sequence,
                           std::int64_t position) = 0;
  // Highest log position acknowledged or dead-lettered here; 0 if none.
  virtual std::int64_t acked_position() = 0;
  // nak: the attempt of the delivery at `position` faulted.
  virtual void record_attempt(std::int64_t position,
                              PendingAttempt attempt) = 0;
  virtual std::optional<PendingAttempt> pending_attempt(
      std::int64_t position) = 0;
  // term: records the dead letter, settles its sequence and clears its
  // pending attempt.
  virtual void dead_letter(DeadLetter letter) = 0;
  // Oldest first.
  virtual std::vector<DeadLetter> dead_letters() = 0;
  virtual std::optional<DeadLetter> find_dead_letter(const EventId& id) = 0;
  // Marks the letter as being re-driven; false if there is none (or it is
  // already being re-driven).
  virtual bool mark_redriving(const EventId& id) = 0;
  // Clears the mark of a re-drive that faulted again (its new attempts
  // went back to the letter).
  virtual void update_dead_letter(DeadLetter letter) = 0;
  // True when a delivered entry may be settled (its pending count lowered)
  // before the acknowledgement that covers it is written: nothing survives
  // a crash of the process in between. A store that outlives the process
  // keeps the default, so an entry settles only once its acknowledgement
  // is written.
  [[nodiscard]] virtual bool settles_before_acknowledgement() const {
    return false;
  }
};

// The runtime's side of one publishing context's delivery.
class Router {
 public:
  virtual ~Router() = default;
  // Routes one logged entry to the subscriptions that take it (D3) and sets
  // entry.pending to how many of them owe it an acknowledgement. The
  // deliveries borrow the entry: the caller keeps `entry` (this pointer,
  // where it lies) until entry.pending is 0.
  virtual void route(const LogEntryPtr& entry) = 0;
  // Reading the log after `position` failed: nothing is lost (the entries
  // are in the store) and the next wake reads from the same position.
  virtual void publish_fault(std::int64_t position,
                             const std::exception& error) noexcept = 0;
};

// One publishing context attached to the transport.
class Publication {
 public:
  virtual ~Publication() = default;
  // A commit appended entries to the context's log: they go to the Router,
  // in log order, after every entry published before them.
  virtual void wake() = 0;
  // Recovery (before the first wake): publishing goes on after `position`;
  // `unsettled` are the retained entries at or below it that recovery queued
  // to their subscriptions again. The log is truncated past an entry once
  // every subscription settled it and the retention has passed.
  virtual void resume(std::int64_t position,
                      const std::vector<LogEntryPtr>& unsettled) = 0;
};

// The runtime's side of the agent messages another process sends to the
// agents installed here.
class MessageSink {
 public:
  virtual ~MessageSink() = default;
  // `messages`, in the order their senders sent them, are pending in this
  // process's store: run them. Called from any thread.
  virtual void received(std::vector<AgentMessage>& messages) noexcept = 0;
};

// What a transport runs for the runtime's incoming messages, until the
// runtime drops it.
class MessageIntake {
 public:
  virtual ~MessageIntake() = default;
};

// What a transport's own threads (a relay to a broker, an ingest from it)
// report: they retry on their own, so nothing is lost, but an operator must
// see a failure without waiting for the lag to show it.
enum class TransportFaultKind {
  // Publishing to the broker failed; retried from the stream's last message.
  relay_failed,
  // Fetching from the broker, or appending what it gave to this store,
  // failed; fetched again.
  ingest_failed,
  // A stream message that is no Herald event or agent message (its headers
  // do not decode): acknowledged as terminated, so it does not stop the
  // messages after it, and left in the stream for inspection.
  message_rejected,
  // What failed works again (after `failures` failures in `failing_for`).
  recovered,
};

struct TransportFault {
  TransportFaultKind kind = TransportFaultKind::relay_failed;
  std::string context;
  std::string stream;
  std::string consumer;               // empty for a relay
  std::uint64_t stream_sequence = 0;  // message_rejected: the message's
  std::string error;                  // the failure, or why rejected
  std::uint64_t failures = 0;         // since the last success
  Duration failing_for{};             // since the first of them
};

// The runtime's side: writes each report to its structured log. Called from
// the transport's threads; may outlive the runtime, which then ignores it.
class TransportFaults {
 public:
  virtual ~TransportFaults() = default;
  virtual void report(const TransportFault& fault) noexcept = 0;
};

struct PublicationOptions {
  Executor* executor = nullptr;  // runs the publication's work
  // How long an entry every subscription settled is kept (for replay).
  Duration retention{};
  // Where the transport's threads report failures (never null from the
  // runtime).
  std::shared_ptr<TransportFaults> faults;
};

class Transport {
 public:
  virtual ~Transport() = default;
  // Publish from the log: called once per publishing context, at install.
  virtual std::unique_ptr<Publication> attach(std::string_view context,
                                              ContextLog& log, Router& router,
                                              PublicationOptions options) = 0;
  // Consume: the records of one subscription (ack, nak, term).
  virtual SubscriptionStore& subscription_store(
      std::string_view subscription) = 0;
  // Events of a context this process does not install, which its
  // subscriptions take (`event_types`, qualified names): called once per
  // such context at recovery. A transport that brings them from the
  // process hosting the context appends them to `log` (this store's mirror
  // of the context's log, envelopes kept) and returns the publication that
  // routes the mirror to `router` as attach's does; its first resume starts
  // the ingest. nullptr (what the in-process transports return): no other
  // process's events arrive, and those subscriptions receive nothing.
  virtual std::unique_ptr<Publication> attach_mirror(
      std::string_view context, const std::vector<std::string>& event_types,
      ContextLog& log, Router& router, PublicationOptions options);

  // Agent messages between processes. Whether messages to the agents of
  // `context`, which this process does not install, are carried by this
  // transport to the process hosting it: they then stay pending in this
  // store until the transport has carried them (and are neither run nor
  // dead-lettered here). false (the in-process transports): such a message
  // has nowhere to go.
  virtual bool carries_messages_to(std::string_view context);
  // A commit left messages pending for agents this transport carries
  // messages to.
  virtual void messages_committed();
  // Called once at recovery, after the pending messages were posted, with
  // the installed contexts that have agent kinds: a transport that carries
  // messages brings those other processes send to these agents into this
  // store (pending, as a local commit leaves them) and hands them to
  // `sink`, until the returned intake is dropped. nullptr (the in-process
  // transports): none arrive.
  virtual std::unique_ptr<MessageIntake> receive_messages(
      const std::vector<std::string>& contexts, MessageSink& sink,
      PublicationOptions options);
};

// The in-process publication of the local backends: an actor on the
// executor that reads the log from its position on and routes each entry.
std::unique_ptr<Publication> make_local_publication(
    ContextLog& log, Router& router, const PublicationOptions& options);

}  // namespace herald
