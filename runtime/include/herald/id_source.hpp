#pragma once
// Where eventIds come from: UUID version 7 (RFC 9562), a 48-bit Unix
// millisecond timestamp followed by 74 bits from a CSPRNG (OpenSSL's
// RAND_bytes: a NIST SP 800-90A DRBG seeded from the kernel). Ids are unique
// across restarts, processes and machines without coordination, whatever the
// executor or its seed: the deterministic executor's seed drives scheduling and
// jitter, never an id. The timestamp keeps ids of one process roughly in
// creation order, which keeps the index of a durable log compact.
//
// Each thread reads the generator's bytes in 16 KiB blocks and takes 10
// bytes per id (the 74 random bits of the layout), so a block serves 1,638
// ids. Ids minted together (EventIdMinter: one invocation's emissions)
// share one read of the clock.
#include <cstdint>
#include <string>

#include "herald/event_id.hpp"

namespace herald {

// A fresh eventId. Safe to call from any thread.
EventId new_event_id();

// Ids minted together (an invocation's emissions): the clock is read once,
// when the minter is made, and every id carries that millisecond, however
// long the minting takes; each draws its own random bits. Used on any
// thread (the random bits are the calling thread's).
class EventIdMinter {
 public:
  EventIdMinter();
  // Going on with the millisecond of an id minted before (`unix_ms`).
  explicit EventIdMinter(std::uint64_t unix_ms) : unix_ms_(unix_ms) {}
  EventId next();

 private:
  std::uint64_t unix_ms_;
};

// The version-7 layout of `unix_ms` and 80 random bits (`rand_hi` gives the
// 16 bits below the timestamp, of which the version keeps 12; `rand_lo` the
// 62 bits after the variant).
EventId event_id_v7(std::uint64_t unix_ms, std::uint16_t rand_hi,
                    std::uint64_t rand_lo);

// The Unix millisecond timestamp of a version-7 id.
std::uint64_t event_id_unix_ms(const EventId& id);

// 64 bits from the CSPRNG, through the calling thread's block.
std::uint64_t secure_random64();

// This process's node id when runtime.node_id is left empty:
// "<hostname>:<pid>", which tells an operator which process wrote a log line.
std::string default_node_id();

}  // namespace herald
