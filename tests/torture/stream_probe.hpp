// What the torture harness reads of a nats node's streams, as an
// operator's `nats stream` would: where each stream ends, and every
// message's log position and eventId, to check that a relay published each
// committed entry once, in log order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace torture {

// `context`'s stream (the nats backend's naming: HERALD_<context, '.' as
// '-'>).
std::string stream_of(const std::string& context);

struct StreamContent {
  // Unset fields when the servers did not answer: `error` says why.
  std::string error;
  std::vector<std::int64_t> positions;  // Herald-Position, stream order
  std::vector<std::string> ids;         // Nats-Msg-Id, the eventIds
};

// The log position the last message of `stream` carries; 0 when the
// stream is empty or does not exist, -1 when the servers (URLs separated
// by commas) do not answer.
std::int64_t last_position(const std::string& urls, const std::string& stream);

// Every message of `stream`, first to last.
StreamContent read_stream(const std::string& urls, const std::string& stream);

}  // namespace torture
