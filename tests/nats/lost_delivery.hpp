#pragma once
// A delivery lost between the server and the consuming node, as the tests
// make one: a second reader takes one delivery from the notifications
// node's durable consumer of PaymentConfirmed (commerce_nodes.hpp) and
// drops it unacknowledged. The consumer counts it delivered and sends it
// again only after its ack wait, which is what a server dying with the
// delivery in flight leaves.
#include <chrono>
#include <cstdint>
#include <string>

namespace herald::test {

// Takes one delivery within `wait` from the server at `url`; its stream
// sequence, or 0 when none came (or the consumer does not exist yet).
std::uint64_t take_one_delivery(const std::string& url,
                                std::chrono::milliseconds wait);

}  // namespace herald::test
