#pragma once
// DeadMessage: an agent message that faulted on its last attempt
// (Runtime::dead_messages). Apart from local_store.hpp because it holds the
// message's JSON arguments, which herald/runtime.hpp does not parse.
#include <cstdint>
#include <string>

#include "herald/agent_message.hpp"
#include "herald/time.hpp"

namespace herald {

struct DeadMessage {
  AgentMessage message;
  std::uint32_t attempts = 0;
  std::string last_error;
  Instant dead_lettered_at{};
};

}  // namespace herald
