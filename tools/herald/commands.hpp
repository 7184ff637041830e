#pragma once
// The herald commands as main() runs them: open the database through the
// runtime's operator API (herald/sqlite_operator.hpp), do the work, print
// the result on stdout (text or --json), report a refusal on stderr. Each
// returns the exit status.
#include <optional>
#include <string>

#include "herald/config.hpp"
#include "herald/sqlite_operator.hpp"

namespace herald::tool {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRefused = 1;   // refused or not found
inline constexpr int kExitUsage = 2;     // the command line (CLI11)
inline constexpr int kExitInternal = 3;  // a bug in herald
// status of a nats node: the local part printed, the broker's could not be
// read (the servers did not answer)
inline constexpr int kExitPartial = 4;

struct Output {
  bool json = false;
};

// `config`: the node's configuration when given (--config); on a nats
// node the status adds its streams and consumers (node_status.hpp).
int run_status(const std::string& db, const RuntimeConfig* config,
               Output output);
int run_dead_letters_list(const std::string& db,
                          const std::optional<std::string>& subscription,
                          Output output);
int run_dead_letters_show(const std::string& db, const std::string& event_id,
                          const std::optional<std::string>& subscription,
                          Output output);
// `event_id` unset: every letter (of `subscription` when given).
int run_dead_letters_redrive(const std::string& db,
                             const std::optional<std::string>& event_id,
                             const std::optional<std::string>& subscription,
                             Output output);
int run_messages_list(const std::string& db,
                      const std::optional<std::string>& agent_kind,
                      Output output);
int run_messages_show(const std::string& db, const std::string& message_id,
                      Output output);
// `message_id` unset: every dead message (to `agent_kind` when given).
int run_messages_redrive(const std::string& db,
                         const std::optional<std::string>& message_id,
                         const std::optional<std::string>& agent_kind,
                         Output output);
int run_replay(const std::string& db, const op::ReplayRequest& request,
               Output output);

}  // namespace herald::tool
