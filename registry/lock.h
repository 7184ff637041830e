// The contents of herald.schema.lock: per event, its version and its shape
// (fields sorted by name, each with its type and default as text). The
// text form is line-oriented so that a change of one event is a change of
// a few lines in a diff:
//
//   # comment
//   event commerce.order.PaymentConfirmed 2
//     amount: commerce.order.Money
//     region: commerce.order.Region = commerce.order.Region.Domestic
//
// Per agent, its state version and its stores (sorted by name), each with
// its type, whether it has an initialiser and, when later than 1, the state
// version that added it (older state decodes it from its initialiser):
//
//   agent commerce.order.Account 2
//     balance: Int = initialiser
//     limit: Int = initialiser, since 2
//
// Events and agents are sorted by qualified name, fields and stores by
// name; blank lines and lines starting with `#` are ignored when reading.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace herald::registry {

inline constexpr std::string_view kLockFileName = "herald.schema.lock";

struct LockField {
  std::string name;
  std::string type;                     // qualified type text
  std::optional<std::string> default_;  // the constant as text, when any
  friend bool operator==(const LockField&, const LockField&) = default;
};

struct LockEvent {
  std::string qualified;
  std::int64_t version = 1;
  std::vector<LockField> fields;  // sorted by name, unique
  std::uint32_t line = 0;         // where it was read (1-based), 0 when built
};

struct LockStore {
  std::string name;
  std::string type;  // qualified type text
  bool initialiser = true;
  std::int64_t since = 1;  // the state version that added it
  friend bool operator==(const LockStore&, const LockStore&) = default;
};

struct LockAgent {
  std::string qualified;
  std::int64_t version = 1;       // the state version
  std::vector<LockStore> stores;  // sorted by name, unique
  std::uint32_t line = 0;         // where it was read (1-based), 0 when built
};

struct Lock {
  std::vector<LockEvent> events;  // sorted by qualified name, unique
  std::vector<LockAgent> agents;  // sorted by qualified name, unique
};

struct LockError {
  std::uint32_t line = 1;  // 1-based
  std::string message;
};

// Reads the text of a lock. On malformed text returns the first problem.
struct ParsedLock {
  Lock lock;
  std::optional<LockError> error;
};
[[nodiscard]] ParsedLock parseLock(std::string_view text);

// The text of `lock`: a header comment, then each event, then each agent,
// one blank line between entries. parseLock(printLock(l)) gives `l` back.
[[nodiscard]] std::string printLock(const Lock& lock);

}  // namespace herald::registry
