#pragma once
// `herald replay`: make a subscription receive its context's retained log
// again from a per-publisher sequence or a time, at the program's next
// start. Per publisher, cursor.acknowledged is lowered to (first replayed
// sequence - 1), so recovery re-queues every retained entry above it;
// without `force` cursor.committed stays, so dedup skips what was delivered,
// with `force` it is lowered too and handlers run again.
// subscription.start_position is lowered below the first replayed position
// when needed; entries between the new and the old start position that are
// not replayed stay undelivered (each publisher's cursor is kept, or raised,
// over them: they were never the subscription's to deliver).
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "herald/time.hpp"

namespace herald::tool {

class Database;
class Progress;

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

// Applies the replay in one transaction, reporting each publisher to
// `progress`. Throws Refusal (nothing changed) for an unknown subscription or
// publisher, or when an entry that would be replayed was truncated.
ReplayResult replay(Database& db, const ReplayRequest& request,
                    Progress& progress);

}  // namespace herald::tool
