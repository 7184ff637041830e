#pragma once
// Internal to the nats backend: the value of a context's lease in the
// leases bucket, with its codec. It crosses the broker, so it is data: a
// value that does not decode is reported as such, never taken for free.
#include <optional>
#include <string>
#include <string_view>

namespace herald::nats_detail {

struct LeaseRecord {
  std::string node;      // backend.nats.node of the holder
  std::string instance;  // one process of that node (a fresh id per backend)
  std::string process;   // "<hostname>:<pid>", for operators
};

// The JSON text of a held lease.
std::string encode_lease(const LeaseRecord& lease);
// An empty value is a released lease (nullopt). Throws herald::Error for a
// value that is not a lease record.
std::optional<LeaseRecord> decode_lease(std::string_view value);

}  // namespace herald::nats_detail
