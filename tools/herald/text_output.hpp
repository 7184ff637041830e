#pragma once
// The text form of each command's result: tables and labelled fields a
// person reads at a glance. Times are ISO-8601 UTC to the millisecond.
#include <string>
#include <vector>

#include "herald/nats_operator.hpp"
#include "herald/sqlite_operator.hpp"

namespace herald::tool {

std::string status_text(const op::Status& status);
// A nats node's: the local status, then its relays and ingests; a '?'
// where the broker part could not be read.
std::string node_status_text(const op::NodeStatus& status);
// One line per letter; the last error on one line, cut to a screen's width.
std::string dead_letter_list_text(const std::vector<op::DeadLetter>& letters);
// Every field of each letter, the payload pretty-printed when it is JSON.
std::string dead_letter_text(const std::vector<op::DeadLetter>& letters);
std::string redrive_text(const op::RedriveResult& result);
// One line per dead message; the last error on one line, cut to a screen's
// width.
std::string dead_message_list_text(
    const std::vector<op::DeadMessage>& messages);
// Every field of a dead message, the arguments pretty-printed when JSON.
std::string dead_message_text(const op::DeadMessage& message);
std::string message_redrive_text(const op::MessageRedriveResult& result);
std::string replay_text(const op::ReplayResult& result);

// `at` as ISO-8601 UTC with milliseconds: 2026-12-02T07:00:00.125Z.
std::string short_instant(Instant at);
// `text` on one line (line breaks and tabs become spaces), cut to `limit`
// characters with "..." when longer.
std::string one_line(const std::string& text, std::size_t limit);

}  // namespace herald::tool
