#include "lease_record.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "herald/errors.hpp"

namespace herald::nats_detail {

std::string encode_lease(const LeaseRecord& lease) {
  return nlohmann::json{{"node", lease.node},
                        {"instance", lease.instance},
                        {"process", lease.process}}
      .dump();
}

std::optional<LeaseRecord> decode_lease(std::string_view value) {
  if (value.empty()) return std::nullopt;
  const nlohmann::json json = nlohmann::json::parse(value, nullptr, false);
  auto text = [&](const char* field) -> std::string {
    if (!json.is_object() || !json.contains(field) ||
        !json.at(field).is_string()) {
      throw Error(fmt::format(
          "a lease value is not a lease record (no string '{}'): {}", field,
          value.substr(0, 200)));
    }
    return json.at(field).get<std::string>();
  };
  LeaseRecord lease{text("node"), text("instance"), text("process")};
  if (lease.node.empty())
    throw Error(fmt::format("a lease value names no node: {}", value));
  return lease;
}

}  // namespace herald::nats_detail
