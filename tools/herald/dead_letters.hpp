#pragma once
// `herald dead-letters`: list, show and mark for re-drive the deliveries a
// subscription dead-lettered. A re-drive is only a mark (redriving = 1); the
// program's next start re-drives every marked letter.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "herald/time.hpp"

namespace herald::tool {

class Database;
class Progress;

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

// Every letter (of `subscription` when given), in id order.
std::vector<DeadLetter> list_dead_letters(
    Database& db, const std::optional<std::string>& subscription);

// The letters of `event_id` (one per subscription that dead-lettered it, or
// only `subscription`'s), in id order. Throws Refusal when there is none.
std::vector<DeadLetter> find_dead_letters(
    Database& db, const std::string& event_id,
    const std::optional<std::string>& subscription);

struct RedriveResult {
  std::int64_t marked = 0;          // letters set to redriving = 1 now
  std::int64_t already_marked = 0;  // letters that already were
};

// Marks the letters of `event_id` (only `subscription`'s when given) for
// re-drive, in one transaction. Throws Refusal when there is none.
RedriveResult redrive_dead_letter(
    Database& db, const std::string& event_id,
    const std::optional<std::string>& subscription);

// Marks every letter (of `subscription` when given) for re-drive, in one
// transaction, reporting each letter to `progress`. A named subscription
// that has no row in `subscription` is refused.
RedriveResult redrive_all_dead_letters(
    Database& db, const std::optional<std::string>& subscription,
    Progress& progress);

// Throws Refusal unless `name` is a subscription of the database.
void require_subscription(Database& db, const std::string& name);

}  // namespace herald::tool
