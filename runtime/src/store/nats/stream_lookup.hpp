#pragma once
// Internal to the nats backend: a stream read by subject, for what a
// consumer's deliveries cannot tell: the first message of a stream at or
// after a sequence whose subject matches a filter (wildcards allowed). It
// is the JetStream API's message get with `next_by_subj`, which
// nats-server 2.9 answers and nats.c 3.4 has no call for; one request,
// bounded by the client's timeout, however many other messages lie in
// between.
#include <cstdint>
#include <optional>
#include <string_view>

namespace herald::nats_detail {

class NatsClient;

// The sequence of that message; unset when the stream holds none at or
// after `from`. Throws herald::Error naming the stream when it cannot be
// read.
std::optional<std::uint64_t> next_matching(NatsClient& client,
                                           std::string_view stream,
                                           std::string_view filter,
                                           std::uint64_t from);

}  // namespace herald::nats_detail
