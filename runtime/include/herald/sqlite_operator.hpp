#pragma once
// The operator API of the sqlite backend's database
// (runtime/docs/sqlite-schema.md): what an operator may read and change in
// a stopped program's file, as typed operations over plain results. It
// takes the database's lock as a running program does, so it refuses a
// database in use, and it never delivers anything: it writes marks that
// the program's next start applies (recovery re-drives every letter marked
// for re-drive and re-queues every retained entry above a subscription's
// lowered cursor). The `herald` tool is its front end
// (tools/herald/README.md). Part of the sqlite backend; no core header
// includes it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "herald/errors.hpp"
#include "herald/time.hpp"

namespace herald::op {

// The operation cannot be done as asked: a missing or foreign database, a
// held lock, a newer schema, an unknown name, history that was truncated.
// Nothing was changed.
class Refusal : public Error {
 public:
  using Error::Error;
};

// SQLite failed while reading or changing the database (damaged, busy, out
// of space). The message names the file. A write that fails is rolled back.
class DatabaseError : public Error {
 public:
  using Error::Error;
};

// Told how far a long operation (re-drive all, replay) has come, so that a
// front end can draw it; the operator never draws anything itself.
class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  // A new task of `total` steps.
  virtual void start(std::string label, std::int64_t total) = 0;
  virtual void advance(std::int64_t steps) = 0;
  virtual void finish() = 0;

 protected:
  ProgressSink() = default;
  ProgressSink(const ProgressSink&) = default;
  ProgressSink& operator=(const ProgressSink&) = default;
};

// ---- status

struct SubscriptionStatus {
  std::string name;
  std::string context;
  // Where its recovery resumes: the highest of acked_position (raised over
  // settled entries: delivered, dead-lettered, filtered out or not routed)
  // and the log position of each publisher's highest committed or
  // acknowledged sequence (ahead of acked_position after a crash).
  std::int64_t position = 0;
  std::int64_t lag = 0;       // the context's log head - position (never < 0)
  std::int64_t retrying = 0;  // rows in pending_attempt
  std::int64_t dead_letters = 0;
  std::int64_t redriving = 0;  // dead letters marked for re-drive
};

struct AgentKindStatus {
  std::string kind;
  std::int64_t instances = 0;
};

// Agent messages pending in the store for one agent kind: not yet run
// (or, on a node of the nats backend, not yet relayed to the node hosting
// the kind's context).
struct PendingMessages {
  std::string agent_kind;
  std::int64_t messages = 0;
};

// Entries of an event type the program that last truncated the log did not
// know (logged by a newer build): kept, never delivered by that program.
struct UnknownEventType {
  std::string event_type;
  std::int64_t entries = 0;  // rows of it still in `log`
};

struct LogStatus {
  std::string context;
  std::int64_t head = 0;
  std::int64_t retained = 0;                    // rows still in `log`
  std::optional<std::int64_t> oldest_position;  // unset when none retained
  std::optional<Instant> oldest_emitted_at;
  std::vector<UnknownEventType> unknown_types;  // by type; none: empty
};

// A position a transport over the store keeps in it (the nats backend's
// relays and ingests): herald_meta's 'transport.<name>'.
struct TransportMark {
  std::string name;  // without 'transport.': 'relay.<context>', ...
  std::int64_t value = 0;
};

struct Status {
  std::string path;
  int schema_version = 0;                         // PRAGMA user_version
  std::optional<std::string> runtime_version;     // herald_meta's
  std::vector<SubscriptionStatus> subscriptions;  // by name
  std::vector<AgentKindStatus> agents;            // by kind
  std::vector<LogStatus> logs;                    // by context
  std::int64_t pending_messages = 0;              // agent_message rows
  std::vector<PendingMessages> pending_by_kind;   // the same, by agent kind
  std::int64_t dead_messages = 0;                 // dead_message rows
  std::vector<TransportMark> transport_marks;     // by name; none: empty
};

// ---- dead letters

struct DeadLetter {
  std::int64_t id = 0;  // dead-lettering order
  std::string subscription;
  std::string event_id;
  std::string context;
  std::int64_t position = 0;
  std::string event_type;
  std::string publisher;
  std::int64_t sequence = 0;
  Instant emitted_at;
  std::int64_t schema_version = 0;
  std::optional<std::string> causation_id;
  std::string correlation_id;
  std::int64_t depth = 0;
  std::string payload;  // as logged; may not be JSON (a malformed event)
  std::int64_t attempts = 0;
  std::string last_error;
  Instant first_attempt_at;
  Instant last_attempt_at;
  Instant dead_lettered_at;
  bool redriving = false;
};

struct RedriveResult {
  std::int64_t marked = 0;          // letters set to redriving = 1 now
  std::int64_t already_marked = 0;  // letters that already were
};

// ---- dead agent messages

// An agent message that was dead-lettered: out of attempts, malformed, or
// to an agent kind the build that read it did not have.
struct DeadMessage {
  std::int64_t seq = 0;  // dead-lettering order
  std::string id;        // the message id (canonical UUID text)
  std::string agent_kind;
  std::string agent_key;
  std::string handler;
  std::string args;  // as stored; may not be JSON (a malformed message)
  std::optional<std::string> causation_id;
  std::string correlation_id;
  std::int64_t depth = 0;
  std::int64_t attempts = 0;
  std::string last_error;
  Instant dead_lettered_at;
};

struct MessageRedriveResult {
  std::int64_t requeued = 0;  // dead messages made pending again
};

// ---- replay

struct ReplayRequest {
  std::string subscription;
  // The first sequence to replay of each publisher, or the first instant:
  // per publisher the first entry emitted at or after it.
  std::variant<std::int64_t, Instant> from;
  std::optional<std::string> publisher;  // only this publisher
  bool force = false;
};

// A cursor row's two marks.
struct CursorMarks {
  std::int64_t committed = 0;
  std::int64_t acknowledged = 0;
  friend bool operator==(const CursorMarks&, const CursorMarks&) = default;
};

struct PublisherReplay {
  std::string publisher;
  std::int64_t first_sequence = 0;
  std::int64_t first_position = 0;
  std::int64_t requeued = 0;          // retained entries from first_sequence on
  std::int64_t dedup_skips = 0;       // of those, at or below committed
  std::optional<CursorMarks> before;  // unset: the cursor row is inserted
  CursorMarks after;
};

// A publisher that is not replayed whose cursor is raised (or inserted) so
// that the lowered start position does not deliver its older entries.
struct PublisherHeld {
  std::string publisher;
  std::optional<CursorMarks> before;
  CursorMarks after;
};

struct ReplayResult {
  std::string subscription;
  std::string context;
  bool force = false;
  std::int64_t start_position_before = 0;
  std::int64_t start_position_after = 0;
  std::vector<PublisherReplay> replayed;  // by publisher; only those with
                                          // something to replay
  std::vector<PublisherHeld> held;        // by publisher
};

}  // namespace herald::op

namespace herald {

namespace sqlite_detail {
class OperatorDatabase;
}

class SqliteOperator {
 public:
  // Opens the database at `path`. Refuses (op::Refusal) a path that does
  // not exist (creating nothing, not even the lock file), a database whose
  // lock another process holds, a file that is not a Herald database, and a
  // schema newer than this build's. Holds the lock until destroyed.
  explicit SqliteOperator(std::string path);
  ~SqliteOperator();
  SqliteOperator(const SqliteOperator&) = delete;
  SqliteOperator& operator=(const SqliteOperator&) = delete;

  const std::string& path() const;

  // Where every subscription stands, agent instances per kind, each log's
  // head and what it retains, agent messages pending (in all and per agent
  // kind) and dead, and the
  // marks a transport keeps in the database.
  op::Status status();

  // Every letter (of `subscription` when given; an unknown one is
  // refused), in dead-lettering order.
  std::vector<op::DeadLetter> dead_letters(
      const std::optional<std::string>& subscription);
  // The letters of `event_id` (canonical form), one per subscription that
  // dead-lettered it, or only `subscription`'s. Refused when there is none.
  std::vector<op::DeadLetter> find_dead_letters(
      const std::string& event_id,
      const std::optional<std::string>& subscription);
  // Marks the letters of `event_id` (only `subscription`'s when given) for
  // re-drive at the program's next start, in one transaction. Refused when
  // there is none.
  op::RedriveResult redrive(const std::string& event_id,
                            const std::optional<std::string>& subscription);
  // Marks every letter (of `subscription` when given) for re-drive, in one
  // transaction, telling `progress` of each.
  op::RedriveResult redrive_all(const std::optional<std::string>& subscription,
                                op::ProgressSink& progress);

  // Every dead agent message (to `agent_kind` when given; a kind the
  // database has no agent, message or dead message of is refused), in
  // dead-lettering order.
  std::vector<op::DeadMessage> dead_messages(
      const std::optional<std::string>& agent_kind);
  // The dead message `id` (canonical form). Refused when there is none,
  // with the nearest id there is.
  op::DeadMessage find_dead_message(const std::string& id);
  // Makes the dead message `id` pending again, in one transaction: it
  // leaves dead_message and is queued in agent_message with no attempt
  // made, behind the messages already pending, under its own id, so the
  // program's next start posts it to its agent as recovery posts every
  // pending message. Refused when there is none.
  op::MessageRedriveResult redrive_message(const std::string& id);
  // Makes every dead message (to `agent_kind` when given) pending again, in
  // one transaction and in dead-lettering order, telling `progress` of each.
  op::MessageRedriveResult redrive_messages(
      const std::optional<std::string>& agent_kind, op::ProgressSink& progress);

  // Makes a subscription receive its context's retained log again at the
  // program's next start, in one transaction. Per publisher,
  // cursor.acknowledged is lowered to (first replayed sequence - 1), so
  // recovery re-queues every retained entry above it; without `force`
  // cursor.committed stays, so dedup skips what was delivered, with `force`
  // it is lowered too and handlers run again. subscription.start_position
  // is lowered below the first replayed position when needed; entries
  // between the new and the old start position that are not replayed stay
  // undelivered (each publisher's cursor is kept, or raised, over them: they
  // were never the subscription's to deliver). Refused, changing nothing,
  // for an unknown subscription or publisher, or when an entry that would
  // be replayed was truncated.
  op::ReplayResult replay(const op::ReplayRequest& request,
                          op::ProgressSink& progress);

 private:
  // The open file: the lock, the connection, its statements.
  std::unique_ptr<sqlite_detail::OperatorDatabase> db_;
};

}  // namespace herald
