#pragma once
// The `--json` form of each command's result. Keys are stable and listed in
// tools/herald/README.md; objects keep the order written here; times are
// ISO-8601 UTC with nanoseconds; absent values are null.
#include <vector>

#include <nlohmann/json.hpp>

#include "herald/nats_operator.hpp"
#include "herald/sqlite_operator.hpp"

namespace herald::tool {

using Json = nlohmann::ordered_json;

Json status_json(const op::Status& status);
// status_json of the local part, with a "node" object.
Json node_status_json(const op::NodeStatus& status);
Json dead_letter_json(const op::DeadLetter& letter);
Json dead_letters_json(const std::vector<op::DeadLetter>& letters);
Json redrive_json(const op::RedriveResult& result);
Json dead_message_json(const op::DeadMessage& message);
Json dead_messages_json(const std::vector<op::DeadMessage>& messages);
Json message_redrive_json(const op::MessageRedriveResult& result);
Json replay_json(const op::ReplayResult& result);

}  // namespace herald::tool
