#pragma once
// The runtime's one typed configuration (keys in config_keys.def).
//
// Sources, highest precedence first: explicit settings from the host, HERALD_*
// environment variables, a config file, then the defaults. Unknown keys and
// malformed values are ConfigErrors naming the key and its source.
//
// Config file format: one `key = value` per line; `#` starts a comment;
// blank lines are ignored; values may be wrapped in double quotes.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "herald/backend_kind.hpp"
#include "herald/dead_letter_policy.hpp"
#include "herald/time.hpp"

namespace herald {

struct RuntimeConfig {
#define HERALD_CONFIG_KEY(member, key, kind, def, doc) \
  HERALD_CONFIG_TYPE_##kind member = def;
#define HERALD_CONFIG_TYPE_Int std::int64_t
#define HERALD_CONFIG_TYPE_Double double
#define HERALD_CONFIG_TYPE_Duration Duration
#define HERALD_CONFIG_TYPE_String std::string
#define HERALD_CONFIG_TYPE_Backend BackendKind
#include "herald/config_keys.def"
#undef HERALD_CONFIG_KEY
#undef HERALD_CONFIG_TYPE_Int
#undef HERALD_CONFIG_TYPE_Double
#undef HERALD_CONFIG_TYPE_Duration
#undef HERALD_CONFIG_TYPE_String
#undef HERALD_CONFIG_TYPE_Backend
};

// Where a value came from, for error messages.
struct ConfigSource {
  std::string description;  // "setting", "environment variable HERALD_X",
                            // "herald.conf:3"
};

struct ConfigSources {
  // Explicit settings (e.g. from a command line), by key.
  std::map<std::string, std::string> settings;
  // Environment; by default the process environment (nullopt). Tests pass
  // their own so they do not depend on the caller's.
  std::optional<std::map<std::string, std::string>> environment;
  // Config file path; if empty, HERALD_CONFIG from the environment, if set.
  std::string file;
};

// Reads and validates every layer. Throws ConfigError.
RuntimeConfig load_config(const ConfigSources& sources);

// The node id a runtime over `config` writes on its log lines:
// runtime.node_id, or "<hostname>:<pid>" when that is empty.
std::string node_id(const RuntimeConfig& config);

// The dead-letter policy of `subscription` (a qualified service name):
// halt if subscriptions.halt_on_dead_letter names it, else skip.
DeadLetterPolicy dead_letter_policy(const RuntimeConfig& config,
                                    std::string_view subscription);

// Throws ConfigError for a name in subscriptions.halt_on_dead_letter that
// is not one of `installed` (with the nearest one, if any).
void check_subscription_names(const RuntimeConfig& config,
                              const std::vector<std::string>& installed);

// The items of a comma-separated value (backend.nats.servers, ...), each
// trimmed; none for a blank value.
std::vector<std::string> config_list(std::string_view value);

// Environment variable name of a key: "retry.base" -> "HERALD_RETRY_BASE".
std::string config_env_name(std::string_view key);

struct ConfigKeyInfo {
  std::string key;
  std::string env;
  std::string default_text;
  std::string doc;
};
// Every key with its default, in declaration order (for docs and --help).
std::vector<ConfigKeyInfo> config_keys();

}  // namespace herald
