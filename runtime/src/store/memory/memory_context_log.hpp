#pragma once
// One publishing context's log in the memory backend: a ring of entries
// behind a lock that is real only when the executor is concurrent. The
// backend's commit stamps and appends (append); the fan-out reads.
#include <algorithm>
#include <deque>
#include <map>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "herald/backend.hpp"
#include "herald/executor.hpp"
#include "herald/publisher_ids.hpp"
#include "herald/ring_queue.hpp"

namespace herald {

class MemoryContextLog final : public ContextLog {
 public:
  MemoryContextLog(bool concurrent, Duration dedup_window)
      : mutex_(concurrent), dedup_window_(dedup_window) {}

  void read(std::int64_t after, std::size_t max,
            std::vector<LogEntryPtr>& out) override {
    std::lock_guard lock(mutex_);
    std::int64_t from = std::max(after + 1, first_);
    for (std::int64_t p = from; p <= head_ && max > 0; ++p, --max)
      out.push_back(log_[static_cast<std::size_t>(p - first_)]);
  }

  std::int64_t head() override {
    std::lock_guard lock(mutex_);
    return head_;
  }

  std::size_t size() override {
    std::lock_guard lock(mutex_);
    return log_.size();
  }

  void truncate(std::int64_t position, Instant retain_until) override {
    std::lock_guard lock(mutex_);
    while (!log_.empty() && first_ <= position &&
           log_.front()->envelope.emittedAt <= retain_until) {
      log_.pop_front();
      ++first_;
    }
  }

  // Under the backend's commit: stamps and logs the event, or returns false
  // if its supplied id is already known.
  // Stamps the entry with `now`, or the time of the entry before it if
  // that is later: a log's emittedAt never decreases with its positions,
  // although a commit's time is read when its handler started (threaded
  // executor).
  bool append(OutboxEvent& event, Instant now) {
    std::lock_guard lock(mutex_);
    now = std::max(now, last_stamp_);
    last_stamp_ = now;
    // Supplied eventIds (host publishes) are the uncommon case: out of line.
    if ((!id_order_.empty() || event.supplied_id) && !admit_id(event, now))
      return false;
    std::string_view publisher = event.publisher_id;
    std::int64_t& sequence = sequence_of(publisher);
    LogEntryPtr entry = std::move(event.entry);
    EventEnvelope& env = entry->envelope;
    env.eventId = event.event_id;
    env.eventType = entry->type->name();
    env.publisherId = publisher;
    env.sequence = ++sequence;
    env.emittedAt = now;
    env.schemaVersion = entry->type->schema_version();
    env.causationId = event.causation;
    env.correlationId =
        event.correlation.is_nil() ? event.event_id : event.correlation;
    env.depth = event.depth;
    entry->position = ++head_;
    log_.push_back(std::move(entry));
    return true;
  }

  std::size_t purge(Instant now) {
    std::lock_guard lock(mutex_);
    return expire_ids(now);
  }

 private:
  // Expires the supplied ids past their window, then records the event's
  // if it has one: false if that one is known already.
  [[gnu::noinline]] bool admit_id(const OutboxEvent& event, Instant now) {
    if (!id_order_.empty()) expire_ids(now);
    if (event.supplied_id) {
      if (!ids_.emplace(event.event_id).second) return false;
      id_order_.emplace_back(event.event_id, now + dedup_window_);
    }
    return true;
  }

  std::size_t expire_ids(Instant now) {
    std::size_t n = 0;
    while (!id_order_.empty() && id_order_.front().second <= now) {
      ids_.erase(id_order_.front().first);
      id_order_.pop_front();
      ++n;
    }
    return n;
  }

  // The sequence of `publisher`, which is set to the interned id. An
  // OutboxEvent's publisher_id is interned already (herald/local_store.hpp),
  // so this compares or hashes its address; runs of one publisher's events
  // reuse the last one found.
  std::int64_t& sequence_of(std::string_view& publisher) {
    if (last_sequence_ == nullptr || publisher.data() != last_id_.data() ||
        publisher.size() != last_id_.size())
      find_sequence(publisher);
    publisher = last_id_;
    return *last_sequence_;
  }

  [[gnu::noinline]] void find_sequence(std::string_view publisher) {
    auto it = sequences_.find(publisher.data());
    if (it == sequences_.end() || it->second.length != publisher.size()) {
      publisher = intern_publisher_id(publisher);
      it = sequences_
               .try_emplace(publisher.data(), Sequence{0, publisher.size()})
               .first;
    }
    last_sequence_ = &it->second.last;
    last_id_ = publisher;
  }

  struct Sequence {
    std::int64_t last = 0;
    std::size_t length = 0;  // of the interned id keying it
  };

  ActorMutex mutex_;
  Duration dedup_window_;
  RingQueue<LogEntryPtr> log_;
  std::int64_t first_ = 1;  // position of log_.front()
  std::int64_t head_ = 0;
  Instant last_stamp_{};  // the latest entry's emittedAt
  // By the interned id's address (node-based: last_sequence_ stays valid).
  std::unordered_map<const char*, Sequence> sequences_;
  std::string_view last_id_;  // interned
  std::int64_t* last_sequence_ = nullptr;
  std::unordered_set<EventId, EventIdHash> ids_;
  std::deque<std::pair<EventId, Instant>> id_order_;  // expiry order
};

}  // namespace herald
