#pragma once
// One subscription's records in the memory backend: a cursor per publisher,
// the attempts of faulted deliveries and the dead letters.
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "herald/backend.hpp"
#include "herald/executor.hpp"
#include "herald/publisher_ids.hpp"

namespace herald {

class MemorySubscriptionStore final : public SubscriptionStore {
 public:
  explicit MemorySubscriptionStore(bool concurrent) : mutex_(concurrent) {}

  // A crash of the process takes the store with it; a simulated one writes
  // the held acknowledgements before it propagates.
  [[nodiscard]] bool settles_before_acknowledgement() const override {
    return true;
  }

  // recorded() and record() run once per delivery. Their common case (one
  // thread, so no lock; the publisher of the last delivery; no attempts
  // stored, not a re-drive) is a few inline instructions, the rest out of
  // line.
  bool recorded(std::string_view publisher, std::int64_t sequence) override {
    if (!mutex_.enabled() && is_last(publisher))
      return sequence <= last_->committed;
    return recorded_locked(publisher, sequence);
  }

  // Under the backend's commit.
  void record(const CommitRecord::DedupRecord& d) {
    if (!mutex_.enabled() && is_last(d.publisher) && attempts_.empty() &&
        !d.redrive) {
      if (d.sequence > last_->committed) last_->committed = d.sequence;
      return;
    }
    record_locked(d);
  }

  std::int64_t acknowledged(std::string_view publisher) override {
    std::lock_guard lock(mutex_);
    return cursor_of(publisher).acknowledged;
  }

  void acknowledge(std::string_view publisher, std::int64_t sequence,
                   std::int64_t position) override {
    std::lock_guard lock(mutex_);
    Cursor& c = cursor_of(publisher);
    if (sequence > c.acknowledged) c.acknowledged = sequence;
    acked_position_ = std::max(acked_position_, position);
  }

  std::int64_t start_position(std::string_view /*context*/,
                              std::int64_t start_if_new,
                              Instant /*now*/) override {
    std::lock_guard lock(mutex_);
    if (!start_) start_ = start_if_new;
    return *start_;
  }

  std::int64_t acked_position() override {
    std::lock_guard lock(mutex_);
    return acked_position_;
  }

  void record_attempt(std::int64_t position, PendingAttempt attempt) override {
    std::lock_guard lock(mutex_);
    attempts_[position] = std::move(attempt);
  }

  std::optional<PendingAttempt> pending_attempt(
      std::int64_t position) override {
    std::lock_guard lock(mutex_);
    auto it = attempts_.find(position);
    if (it == attempts_.end()) return std::nullopt;
    return it->second;
  }

  void dead_letter(DeadLetter letter) override {
    std::lock_guard lock(mutex_);
    const EventEnvelope& env = letter.event->envelope;
    Cursor& c = cursor_of(env.publisherId);
    if (env.sequence > c.committed) c.committed = env.sequence;
    if (env.sequence > c.acknowledged) c.acknowledged = env.sequence;
    acked_position_ = std::max(acked_position_, letter.event->position);
    attempts_.erase(letter.event->position);
    const EventId id = env.eventId;
    erase_letter(id);
    const std::uint64_t order = next_order_++;
    order_of_.emplace(id, order);
    letters_.emplace(order, std::move(letter));
  }

  std::vector<DeadLetter> dead_letters() override {
    std::lock_guard lock(mutex_);
    std::vector<DeadLetter> all;
    all.reserve(letters_.size());
    for (const auto& [order, letter] : letters_) all.push_back(letter);
    return all;
  }

  std::optional<DeadLetter> find_dead_letter(const EventId& id) override {
    std::lock_guard lock(mutex_);
    auto it = order_of_.find(id);
    if (it == order_of_.end()) return std::nullopt;
    return letters_.at(it->second);
  }

  bool mark_redriving(const EventId& id) override {
    std::lock_guard lock(mutex_);
    auto it = order_of_.find(id);
    if (it == order_of_.end()) return false;
    DeadLetter& letter = letters_.at(it->second);
    return !std::exchange(letter.redriving, true);
  }

  void update_dead_letter(DeadLetter letter) override {
    std::lock_guard lock(mutex_);
    auto it = order_of_.find(letter.event->envelope.eventId);
    if (it == order_of_.end()) return;
    letters_.at(it->second) = std::move(letter);
  }

 private:
  struct Cursor {
    std::int64_t committed = 0;
    std::int64_t acknowledged = 0;
    std::size_t length = 0;  // of the interned id keying it
  };

  void erase_letter(const EventId& id) {
    auto it = order_of_.find(id);
    if (it == order_of_.end()) return;
    letters_.erase(it->second);
    order_of_.erase(it);
  }

  [[gnu::noinline]] bool recorded_locked(std::string_view publisher,
                                         std::int64_t sequence) {
    std::lock_guard lock(mutex_);
    return sequence <= cursor_of(publisher).committed;
  }

  [[gnu::noinline]] void record_locked(const CommitRecord::DedupRecord& d) {
    std::lock_guard lock(mutex_);
    Cursor& c = cursor_of(d.publisher);
    if (d.sequence > c.committed) c.committed = d.sequence;
    if (!attempts_.empty()) attempts_.erase(d.position);
    if (d.redrive) erase_letter(d.event_id);
  }

  bool is_last(std::string_view publisher) const {
    return publisher.data() == last_id_.data() &&
           publisher.size() == last_id_.size();
  }

  // Cursors are keyed by the interned publisher id's address
  // (herald/publisher_ids.hpp): envelopes point there, so a delivery finds
  // its cursor by comparing a pointer (deliveries come in runs from one
  // publisher: the last cursor is remembered) or hashing one, never by
  // comparing text. An id from elsewhere is interned first.
  Cursor& cursor_of(std::string_view publisher) {
    if (is_last(publisher)) return *last_;
    return find_cursor(publisher);
  }

  [[gnu::noinline]] Cursor& find_cursor(std::string_view publisher) {
    auto it = cursors_.find(publisher.data());
    if (it == cursors_.end() || it->second.length != publisher.size()) {
      const std::string_view id = intern_publisher_id(publisher);
      it = cursors_.try_emplace(id.data(), Cursor{0, 0, id.size()}).first;
      publisher = id;
    }
    last_ = &it->second;
    last_id_ = publisher;
    return *last_;
  }

  ActorMutex mutex_;
  std::optional<std::int64_t> start_;  // recorded at the first recovery
  std::int64_t acked_position_ = 0;
  // Node-based: a cursor never moves, so last_ stays valid.
  std::unordered_map<const char*, Cursor> cursors_;
  // Until the first lookup last_id_ is no publisher's (an interned id never
  // lies at kNoPublisher), so is_last() needs no test of last_.
  static constexpr char kNoPublisher[1] = {'\0'};
  std::string_view last_id_{kNoPublisher, 1};  // interned
  Cursor* last_ = nullptr;
  std::unordered_map<std::int64_t, PendingAttempt> attempts_;
  std::map<std::uint64_t, DeadLetter> letters_;  // in dead-lettering order
  std::unordered_map<EventId, std::uint64_t, EventIdHash> order_of_;
  std::uint64_t next_order_ = 0;
};

}  // namespace herald
