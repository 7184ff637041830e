#pragma once
// Internal: one subscription as an actor (D4): its own queue, retries and
// dead letters; its cursor, dedup records and attempt counts live in the
// backend's SubscriptionStore. Deliveries from one publisher are served
// strictly in sequence (D7): while one waits for a retry, later events of
// that publisher are parked in its lane, and other publishers go on. Lanes
// are scheduling only; recovery rebuilds them from the store.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "herald/backend.hpp"
#include "herald/context.hpp"
#include "herald/errors.hpp"
#include "herald/invocation.hpp"
#include "herald/local_store.hpp"
#include "herald/mailbox.hpp"
#include "herald/metrics.hpp"

namespace herald {

class FaultInjector;
class RuntimeImpl;

struct Delivery {
  // A routed delivery borrows its entry: the publication that routed it
  // keeps the entry, and `shared` where it lies, while the entry's pending
  // count is above 0 (Router::route), that is until this delivery's finish
  // takes the count down; nothing of it is read after that. A delivery
  // queued otherwise (recovery, a re-drive, a skipped letter) owns it in
  // `owned`, and `shared` is null.
  LogEntry* entry = nullptr;
  const LogEntryPtr* shared = nullptr;
  LogEntryPtr owned;
  std::uint32_t attempt = 1;
  bool redrive =
      false;  // from the dead-letter store: outside FIFO, parks nothing
  bool resumed = false;  // a retry that holds its publisher's lane
  // Queued by recovery: the process may have stopped while running it, so
  // the attempt is stored before the handler runs.
  bool recovered = false;
  // Not a delivery: the dead letter of `entry` was skipped, and the lane it
  // halted goes on (Runtime::skip_dead_letter).
  bool release = false;
  Instant first_attempt_at{};
  // Recovery of a delivery that faulted: its next attempt is not due before
  // this (its lane is held until then).
  Instant not_before{};
  // Attempts in a row whose store writes failed (contain()); past
  // retry.max_attempts the delivery is left unacknowledged in the store.
  std::uint32_t store_faults = 0;
  // Waits in a row because the node could not commit (FaultClass::
  // unavailable, wait_unavailable()): they grow the next wait, not the
  // attempt.
  std::uint32_t unavailable_waits = 0;

  // Queued with its own reference (recovery, re-drive, skip).
  static Delivery owning(LogEntryPtr entry) {
    LogEntry* e = entry.get();
    return Delivery{e, nullptr, std::move(entry)};
  }
  // A reference of its own to the entry, for what outlives the delivery
  // (a dead letter, a halted lane).
  LogEntryPtr share() const { return shared != nullptr ? *shared : owned; }
};
// Copied into every subscription's inbox per delivery: one cache line.
static_assert(sizeof(Delivery) <= 64);

class SubscriptionActor final : public Actor {
 public:
  SubscriptionActor(RuntimeImpl& runtime, SubscriptionSpec spec,
                    const InvocationSite& site, SubscriptionStore& store,
                    SubscriptionMetrics& metrics);

  const SubscriptionSpec& spec() const { return spec_; }
  SubscriptionStore& store() { return store_; }
  SubscriptionMetrics& metrics() { return metrics_; }

  // The compiled `via` and pattern (D3).
  // Entries of the publishing context's log at or below this position are
  // not delivered here (SubscriptionStore::start_position, set by recovery).
  std::int64_t start() const { return start_; }
  void set_start(std::int64_t position) { start_ = position; }

  // A malformed entry (D9) has no payload to match: every subscription of
  // its type whose `via` admits it takes it, to dead-letter it.
  bool accepts(const LogEntry& entry) const {
    if (spec_.via && !spec_.via(entry.envelope)) return false;
    if (entry.malformed != nullptr) return true;
    return !spec_.pattern || spec_.pattern(entry.payload);
  }

  // Queues without scheduling; returns true if the caller must schedule this
  // actor (see Mailbox::push_deferred).
  // The delivery borrows `entry` (see Delivery): `entry` itself must stay
  // where it is while the entry's pending count is above 0.
  [[nodiscard]] bool enqueue_deferred(const LogEntryPtr& entry) {
    metrics_.enqueued.add();
    return inbox_.emplace_deferred(entry.get(), &entry);
  }
  // Recovery: queues an unacknowledged entry, with its stored attempts if it
  // had faulted (then returns true).
  bool recover(LogEntryPtr entry);
  void redrive(DeadLetter letter);
  // The letter (already stored with policy skip) no longer holds its lane.
  void skip(DeadLetter letter);
  DeadLetterPolicy policy() const { return policy_; }
  void run() override;

 private:
  // The deliveries of one run (run() writes the acknowledgements after).
  void run_batch();
  // One delivery of the run, `d` still at the front of batch_.
  // Inlined into run_batch(), its only caller.
  [[gnu::always_inline]] inline void serve(Delivery& d);
  void deliver(Delivery& d);
  // When the attempt a delivery is about to make starts: the time of the
  // commit just before it in this run (between them lies bookkeeping
  // alone), which it takes, or else the executor's clock. A clock read per
  // delivery fewer (on the threaded executor a system call's cost on some
  // machines).
  Instant attempt_start();
  // A fault of serve() outside the handler (the store failed): contained
  // (contain()) unless the delivery now waits behind a failed group. Out of
  // line, so that serving holds no fault text.
  [[gnu::noinline]] void contain_store_fault(Delivery& d,
                                             const std::string& message);
  // tx: the aborted invocation, or nullptr if the handler never ran.
  // `message` is fault text (fault_text); `kind` decides between a retry
  // (transient), a dead letter at once (deterministic) and a wait that
  // counts no attempt (unavailable).
  void fault(Delivery& d, const std::string& message, FaultKind kind,
             Invocation* tx);
  // The node could not commit (its lease lapsed): the same attempt runs
  // again after the D8 backoff of the waits so far, holding its lane, for
  // as long as that lasts; nothing is recorded in the store.
  void wait_unavailable(const Delivery& d, const std::string& message,
                        Instant now);
  // D9: the entry's payload did not decode; dead-lettered at once with
  // "malformed: <error>", its handler not run.
  // Dead-letters the delivery with `message` and finishes it.
  void term(Delivery& d, const std::string& message, Instant now);
  void dead_letter_malformed(Delivery& d);
  // A fault outside the handler (the store failed): nothing is known to be
  // recorded, so the delivery is tried again after a backoff.
  void contain(Delivery& d, const std::string& message) noexcept;
  void retry_later(Delivery next, Instant at);
  // A fault's retry (fault(), wait_unavailable()): `d` again at `at`, as
  // attempt `attempt` after `waits` unavailable waits, holding its lane.
  void run_again(const Delivery& d, std::uint32_t attempt, std::uint32_t waits,
                 Instant at);
  // The pending count goes down last: a borrowed entry may be gone after
  // it (Delivery).
  void finish(const Delivery& d) {
    metrics_.finished.add();
    if (d.redrive) return;
    if (!parked_.empty()) resume_after(d);
    release_pending(*d.entry);
  }
  // finish() of a delivery whose acknowledgement is held: its entry's
  // pending count is taken down once the acknowledgement is written
  // (write_acknowledgement()), so that a store that treats an entry no
  // subscription owes as settled (the sqlite backend) never settles one
  // whose acknowledgement it has not been given.
  // Held for settling first: a failure to hold it leaves the lane as it
  // was. Otherwise the pending count goes down last (see finish()).
  [[gnu::always_inline]] void finish_acknowledged(const Delivery& d) {
    metrics_.finished.add();
    if (settle_after_ack_) {
      settle_.push_back(d.entry);
      if (!parked_.empty()) resume_after(d);
    } else {
      if (!parked_.empty()) resume_after(d);
      release_pending(*d.entry);
    }
  }
  // One subscription less owes `entry`. Under an executor that runs one
  // actor at a time no other thread touches the count, and it is lowered
  // without a locked instruction: that was a seventh of a delivery's time
  // with eight subscriptions.
  [[gnu::always_inline]] void release_pending(LogEntry& entry) const {
    if (concurrent_) {
      entry.pending.fetch_sub(1, std::memory_order_acq_rel);
    } else {
      entry.pending.store(entry.pending.load(std::memory_order_relaxed) - 1,
                          std::memory_order_relaxed);
    }
  }
  // finish() with lanes parked: the lane d held goes on.
  void resume_after(const Delivery& d);
  // Acknowledgements are held for the run and written once per run of one
  // publisher's deliveries (the stores keep the highest sequence per
  // publisher): when a delivery of another publisher is acknowledged, when
  // the run ends, and before a crash propagates.
  // Inline (it is most of a delivery's acknowledgement).
  [[gnu::always_inline]] void acknowledge(const LogEntry& entry) {
    const std::string_view publisher = entry.envelope.publisherId;
    if (!ack_held_ || publisher.data() != ack_publisher_.data() ||
        publisher.size() != ack_publisher_.size()) {
      acknowledge_other(entry);
      return;
    }
    ack_sequence_ = std::max(ack_sequence_, entry.envelope.sequence);
    ack_position_ = std::max(ack_position_, entry.position);
  }
  void acknowledge_other(const LogEntry& entry);
  void write_acknowledgement();
  // Group commit (LocalStore::commits_dedups_together): a delivery of this
  // run that is neither a retry, a recovery nor a re-drive, whose handler
  // staged nothing, joins the group instead of committing on its own; the
  // group commits in one transaction before anything else of the run is
  // decided (another delivery's commit, fault, dead letter or dedup) and
  // when the run ends. Nothing of a grouped delivery (its acknowledgement,
  // its entry's settling, its metrics, what waited behind it) is released
  // before that commit.
  bool joins_group(const Delivery& d) const {
    return group_commits_ && !d.redrive && !d.resumed && !d.recovered &&
           !d.release && d.store_faults == 0 && d.not_before == Instant{};
  }
  // Commits the group. If that fails, nothing of it is committed: the
  // first delivery of each of its publishers faults (and is retried), the
  // others wait behind it in their lane (D7), and their publishers are
  // kept in group_failed_ until the next group commits.
  void commit_group();
  // Before an outcome of `d` outside the group: commits the group; true if
  // that failed for `d`'s publisher, and `d` now waits in its lane behind
  // the group's deliveries (whatever `d` staged is the caller's to drop).
  // Inline: every delivery outside a group asks, and almost always there
  // is no group.
  bool held_behind_group(Delivery& d) {
    if (group_.empty() || committing_group_) return false;
    return commit_group_before(d);
  }
  bool commit_group_before(Delivery& d);
  // After `d`'s handler returned, with group commits: true if `d` joined
  // the group, or waits behind a failed one (what it staged is dropped);
  // false if it commits on its own.
  [[gnu::noinline]] bool joined_or_held(Delivery& d, Invocation& tx,
                                        const CommitRecord::DedupRecord& dedup);
  // A delivery of the failed group waits, not yet run again, behind the
  // first of its publisher's.
  void park_behind(Delivery d);
  // Halted lanes (policy halt): what the store's letters hold, read once,
  // before this actor's first delivery.
  void load_halts();
  // The lane of `entry`'s publisher was halted by the letter of `entry`:
  // it goes on, what waited first, in order.
  void release_halt(const LogEntry& entry);
  void resume_lane(std::string_view publisher);
  nlohmann::json log_line(const char* event, const Delivery& d,
                          const std::string& message) const;

  RuntimeImpl& runtime_;
  SubscriptionSpec spec_;
  const InvocationSite& site_;
  SubscriptionStore& store_;
  std::int64_t start_ = 0;
  SubscriptionMetrics& metrics_;
  Mailbox<Delivery> inbox_;
  // Taken from the mailbox and not yet served (a run serves at most kBatch).
  RingQueue<Delivery> batch_;
  // Deliveries of a lane resumed while serving the front of batch_: they go
  // in front of batch_ once that one is popped.
  std::vector<Delivery> resumed_;
  // Publishers with a delivery waiting for its retry, and what arrived from
  // them meanwhile, in sequence order. Keyed by the envelope's publisherId,
  // which points into the store's stable copy.
  std::unordered_map<std::string_view, std::deque<Delivery>> parked_;
  DeadLetterPolicy policy_;
  // Publishers whose lane a dead letter halted, with the letter's entry
  // (which the key points into). Their lane in parked_ stays until the
  // letter is re-driven and commits, or is skipped.
  std::unordered_map<std::string_view, LogEntryPtr> halted_;
  bool halts_loaded_ = false;
  // The acknowledgement held (acknowledge()): publisher (interned, as on
  // the envelope), its highest sequence and the highest position.
  std::string_view ack_publisher_;
  std::int64_t ack_sequence_ = 0;
  std::int64_t ack_position_ = 0;
  bool ack_held_ = false;
  // The time the last delivery of this run committed at, until the next
  // delivery takes it (attempt_start()); none at a run's start.
  Instant last_commit_{};
  // The entries of the deliveries that acknowledgement covers. Each stays
  // alive while its pending count is above 0: the publication keeps it
  // until every subscription settled it.
  std::vector<LogEntry*> settle_;
  // False for the memory backend's store, which reads no pending counts:
  // the count goes down at once.
  bool settle_after_ack_;
  // The executor runs actors on several threads at once (release_pending).
  bool concurrent_;
  // The group (joins_group()): its deliveries in serving order and their
  // dedup records, and the publishers of the last group that failed.
  bool group_commits_;
  std::vector<Delivery> group_;
  std::vector<CommitRecord::DedupRecord> group_records_;
  std::vector<std::string_view> group_failed_;
  bool committing_group_ = false;
  FaultInjector* faults_;  // the deterministic executor's, else nullptr
};

}  // namespace herald
