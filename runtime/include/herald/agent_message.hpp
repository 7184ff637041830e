#pragma once
// A one-way agent message (a Herald `Ref` call) as data rather than as a
// closure: a durable backend can store it in the sender's commit and a
// restarted process can run it, and the receiving agent finds the handler in
// its kind's table by name.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "herald/cause.hpp"

namespace herald {

// Minted when the message is sent; the receiving agent's commit records it,
// so a message re-posted after a restart runs once.
using MessageId = EventId;

// (bugprone-exception-escape is reported for its implicit special members
// in some translation units; each member, ids, strings, nlohmann::json and
// Cause, moves without throwing.)
struct AgentMessage {  // NOLINT(bugprone-exception-escape)
  MessageId id;
  std::string agent_kind;  // qualified: "chat.rooms.Room"
  std::string key;         // the target agent's key text
  std::string handler;     // "systemMessage"
  nlohmann::json args;     // the handler's encoded argument struct
  Cause cause;             // the sender's
  // Set for a message read back from a store whose arguments are not JSON
  // (D9): the parse error; `args` then holds the stored text as a string.
  // It is dead-lettered without running its handler.
  std::string malformed;
  // In memory only: how many attempts in a row the store refused to write
  // (its commit, attempt count or dead letter failed). Past
  // retry.max_attempts the message is left pending in the store.
  std::uint32_t store_faults = 0;
  // In memory only: how many runs in a row the node could not commit
  // (FaultClass::unavailable); they grow its next wait, not its attempts.
  std::uint32_t unavailable_waits = 0;
};

}  // namespace herald
