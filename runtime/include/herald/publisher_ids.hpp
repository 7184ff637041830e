#pragma once
// Publisher ids interned once per process. Every envelope the runtime stamps
// points its publisherId into this table, so within the process one id has
// one address: the memory backend finds a publisher's sequence and each
// subscription's cursor by that address (a pointer compared or hashed, not a
// string) and falls back to the text only for an id that did not come from
// here. Entries are never removed: an id lives as long as the process, as
// the stores that keep its sequence and cursors do.
#include <string_view>

namespace herald {

// The process's copy of `id` (thread-safe; the first call for an id copies
// it, later calls return the same view).
std::string_view intern_publisher_id(std::string_view id);

}  // namespace herald
