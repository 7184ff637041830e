#pragma once
// Internal: the emissions of one commit counted per event type, read before
// the store takes the entries and added to `released` once the commit
// returned (D2: an event is released when it is in its publisher's log),
// and to `emitted` (a staged emission is counted there when its invocation
// commits or aborts, not by each Events.emit call). Without allocating for
// up to four event types, the common case.
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "herald/event_type.hpp"
#include "herald/metrics.hpp"

namespace herald {

class ReleaseTally {
 public:
  void add(const EventType& type) {
    const std::uint32_t index = type.index();
    for (std::size_t i = 0; i < used_; ++i) {
      if (first_[i].first == index) {
        ++first_[i].second;
        return;
      }
    }
    if (used_ < first_.size()) {
      first_[used_++] = {index, 1};
      return;
    }
    for (auto& [i, n] : more_) {
      if (i == index) {
        ++n;
        return;
      }
    }
    more_.emplace_back(index, 1);
  }

  // `metrics` is indexed by event type index. Emitted first, so that a
  // reader never sees more released than emitted.
  void count(const std::vector<EventTypeMetrics*>& metrics) const {
    for (std::size_t i = 0; i < used_; ++i) {
      EventTypeMetrics& m = *metrics[first_[i].first];
      m.emitted.add(first_[i].second);
      m.released.add(first_[i].second);
    }
    for (const auto& [index, n] : more_) {
      metrics[index]->emitted.add(n);
      metrics[index]->released.add(n);
    }
  }

 private:
  std::array<std::pair<std::uint32_t, std::uint64_t>, 4> first_{};
  std::size_t used_ = 0;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> more_;
};

}  // namespace herald
