#include "herald/config.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <functional>

#include <fmt/format.h>

#include "herald/errors.hpp"
#include "herald/id_source.hpp"
#include "herald/nearest_name.hpp"
#include <unistd.h>  // environ

namespace herald {
namespace {

using Setter = std::function<void(RuntimeConfig&, std::string_view value)>;

struct KeyDef {
  std::string_view key;
  std::string_view doc;
  std::string default_text;
  Setter set;
};

std::int64_t parse_int(std::string_view text) {
  std::int64_t v = 0;
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  std::string cleaned;
  for (char c : digits) {
    if (c != '_') cleaned.push_back(c);  // 1_000_000, as in Herald source
  }
  auto [end, ec] =
      std::from_chars(cleaned.data(), cleaned.data() + cleaned.size(), v);
  if (ec != std::errc() || end != cleaned.data() + cleaned.size() ||
      cleaned.empty()) {
    throw std::invalid_argument("expected an integer");
  }
  return v;
}

double parse_double(std::string_view text) {
  std::string s(text);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size())
    throw std::invalid_argument("expected a number");
  return v;
}

std::string text_of(std::int64_t v) { return std::to_string(v); }
std::string text_of(double v) { return fmt::format("{}", v); }
std::string text_of(Duration v) { return format_duration(v); }
std::string text_of(const std::string& v) { return v; }
std::string text_of(BackendKind v) { return std::string(backend_kind_name(v)); }

void assign(std::int64_t& m, std::string_view v) { m = parse_int(v); }
void assign(double& m, std::string_view v) { m = parse_double(v); }
void assign(Duration& m, std::string_view v) { m = parse_duration(v); }
void assign(std::string& m, std::string_view v) { m = std::string(v); }

// A value outside a key's closed set of names.
struct NotOneOf {
  std::string allowed;  // "memory, sqlite"
};

void assign(BackendKind& m, std::string_view v) {
  if (auto kind = parse_backend_kind(v)) {
    m = *kind;
    return;
  }
  throw NotOneOf{backend_kind_names()};
}

const std::vector<KeyDef>& key_defs() {
  static const std::vector<KeyDef> defs = {
#define HERALD_CONFIG_KEY(member, key, kind, def, doc) \
  KeyDef{key, doc, text_of(RuntimeConfig{}.member),    \
         [](RuntimeConfig& c, std::string_view v) { assign(c.member, v); }},
#include "herald/config_keys.def"
#undef HERALD_CONFIG_KEY
  };
  return defs;
}

const KeyDef* find_key(std::string_view key) {
  for (const KeyDef& d : key_defs()) {
    if (d.key == key) return &d;
  }
  return nullptr;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

// "; did you mean 'x'?" when one of `names` is near `word`, else "".
std::string did_you_mean(std::string_view word,
                         const std::vector<std::string>& names) {
  if (auto near = nearest_name(word, names))
    return fmt::format("; did you mean '{}'?", *near);
  return {};
}

const std::vector<std::string>& key_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const KeyDef& d : key_defs()) out.emplace_back(d.key);
    return out;
  }();
  return names;
}

struct Layer {
  std::string key;
  std::string value;
  std::string source;
};

void apply(RuntimeConfig& config, const Layer& layer) {
  const KeyDef* def = find_key(layer.key);
  if (def == nullptr) {
    throw ConfigError(fmt::format("unknown configuration key '{}' ({}){}",
                                  layer.key, layer.source,
                                  did_you_mean(layer.key, key_names())));
  }
  try {
    def->set(config, layer.value);
  } catch (const NotOneOf& e) {
    throw ConfigError(
        fmt::format("configuration key '{}' is '{}' ({}); expected one of: {}",
                    layer.key, layer.value, layer.source, e.allowed));
  } catch (const std::invalid_argument& e) {
    throw ConfigError(
        fmt::format("malformed value '{}' for configuration key '{}' ({}): {}",
                    layer.value, layer.key, layer.source, e.what()));
  } catch (const std::out_of_range& e) {
    throw ConfigError(fmt::format(
        "malformed value '{}' for configuration key '{}' ({}): out of range",
        layer.value, layer.key, layer.source));
  }
}

std::vector<Layer> read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("cannot read config file '{}'", path));
  std::vector<Layer> layers;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::string_view text = line;
    if (auto hash = text.find('#'); hash != std::string_view::npos)
      text = text.substr(0, hash);
    text = trim(text);
    if (text.empty()) continue;
    auto eq = text.find('=');
    std::string where = fmt::format("{}:{}", path, number);
    if (eq == std::string_view::npos) {
      throw ConfigError(
          fmt::format("{}: expected 'key = value', got '{}'", where, text));
    }
    std::string_view key = trim(text.substr(0, eq));
    std::string_view value = trim(text.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
      value = value.substr(1, value.size() - 2);
    layers.push_back(Layer{std::string(key), std::string(value), where});
  }
  return layers;
}

std::map<std::string, std::string> process_environment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view entry = *e;
    auto eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    env.emplace(std::string(entry.substr(0, eq)),
                std::string(entry.substr(eq + 1)));
  }
  return env;
}

// HERALD_* variables are shared with other Herald tools; only those under one
// of the runtime's sections are ours, and among those an unknown name is a
// typo worth stopping for.
bool in_runtime_section(std::string_view env_name) {
  static const std::vector<std::string> prefixes = [] {
    std::vector<std::string> out;
    for (const KeyDef& d : key_defs()) {
      std::string section =
          config_env_name(d.key.substr(0, d.key.find('.'))) + "_";
      if (std::find(out.begin(), out.end(), section) == out.end())
        out.push_back(section);
    }
    return out;
  }();
  for (const std::string& p : prefixes) {
    if (env_name.starts_with(p)) return true;
  }
  return false;
}

// Where each key's effective value came from, for validation errors.
using Origins = std::map<std::string, std::string, std::less<>>;

std::string origin(const Origins& origins, std::string_view key) {
  auto it = origins.find(key);
  return it == origins.end() ? "default" : it->second;
}

void check_one_of(const Origins& o, std::string_view key,
                  const std::string& value,
                  std::initializer_list<std::string_view> allowed) {
  for (std::string_view a : allowed) {
    if (value == a) return;
  }
  std::string list;
  for (std::string_view a : allowed)
    list += (list.empty() ? "" : ", ") + std::string(a);
  throw ConfigError(
      fmt::format("configuration key '{}' is '{}' ({}); expected one of: {}",
                  key, value, origin(o, key), list));
}

void check_at_least(const Origins& o, std::string_view key, std::int64_t value,
                    std::int64_t min) {
  if (value < min) {
    throw ConfigError(
        fmt::format("configuration key '{}' is {} ({}); it must be at least {}",
                    key, value, origin(o, key), min));
  }
}

// A node id stands unquoted in log lines and metrics labels: printable,
// without spaces, and short.
void check_node_id(const Origins& o, const std::string& id) {
  constexpr std::size_t kMax = 255;
  const bool printable = std::all_of(id.begin(), id.end(), [](char ch) {
    const auto u = static_cast<unsigned char>(ch);
    return u > 0x20 && u != 0x7F;
  });
  if (id.size() > kMax || !printable) {
    throw ConfigError(
        fmt::format("configuration key 'runtime.node_id' is '{}' ({}); it must "
                    "be at most {} bytes without spaces or control "
                    "characters",
                    id, origin(o, "runtime.node_id"), kMax));
  }
}

// The names of a comma-separated list, trimmed; empty items are refused.
std::vector<std::string_view> list_items(std::string_view list) {
  std::vector<std::string_view> items;
  if (trim(list).empty()) return items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    items.push_back(trim(list.substr(
        start, comma == std::string_view::npos ? comma : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

void check_name_list(const Origins& o, std::string_view key,
                     const std::string& list) {
  for (std::string_view item : list_items(list)) {
    if (item.empty()) {
      throw ConfigError(fmt::format(
          "configuration key '{}' is '{}' ({}); expected subscription names "
          "separated by commas, with no empty item",
          key, list, origin(o, key)));
    }
  }
}

// A value the nats backend needs (backend.kind = nats).
void check_required(const Origins& o, std::string_view key,
                    const std::string& value, std::string_view what) {
  if (!trim(value).empty()) return;
  throw ConfigError(fmt::format(
      "configuration key '{}' is empty ({}); backend.kind = nats ({}) needs {}",
      key, origin(o, key), origin(o, "backend.kind"), what));
}

// A comma-separated list of words: no empty item, no space inside one.
void check_word_list(const Origins& o, std::string_view key,
                     const std::string& list, std::string_view what) {
  for (std::string_view item : list_items(list)) {
    const bool spaced = std::any_of(item.begin(), item.end(), [](char ch) {
      return std::isspace(static_cast<unsigned char>(ch)) != 0;
    });
    if (item.empty() || spaced) {
      throw ConfigError(fmt::format(
          "configuration key '{}' is '{}' ({}); expected {} separated by "
          "commas, with no empty item and no space inside one",
          key, list, origin(o, key), what));
    }
  }
}

// The node's name is part of the names it gives things in JetStream, whose
// names admit no '.', '*', '>' or space.
void check_nats_node(const Origins& o, const std::string& node) {
  constexpr std::size_t kMax = 64;
  const bool word = std::all_of(node.begin(), node.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '-' ||
           ch == '_';
  });
  if (node.size() > kMax || !word) {
    throw ConfigError(fmt::format(
        "configuration key 'backend.nats.node' is '{}' ({}); a node name is "
        "at most {} letters, digits, '-' and '_'",
        node, origin(o, "backend.nats.node"), kMax));
  }
}

void validate_nats(const RuntimeConfig& c, const Origins& o) {
  check_required(o, "backend.nats.servers", c.backend_nats_servers,
                 "the URLs of its servers");
  check_word_list(o, "backend.nats.servers", c.backend_nats_servers,
                  "server URLs");
  check_required(o, "backend.nats.node", c.backend_nats_node,
                 "this node's name");
  check_nats_node(o, c.backend_nats_node);
  check_required(o, "backend.nats.contexts", c.backend_nats_contexts,
                 "the contexts this node hosts");
  check_word_list(o, "backend.nats.contexts", c.backend_nats_contexts,
                  "context names");
  check_at_least(o, "backend.nats.replicas", c.backend_nats_replicas, 1);
  if (c.backend_nats_replicas > 5) {
    throw ConfigError(fmt::format(
        "configuration key 'backend.nats.replicas' is {} ({}); JetStream "
        "keeps at most 5 replicas",
        c.backend_nats_replicas, origin(o, "backend.nats.replicas")));
  }
  check_at_least(o, "backend.nats.stream_max_bytes",
                 c.backend_nats_stream_max_bytes, 0);
  if (c.backend_nats_stream_max_age < Duration::zero()) {
    throw ConfigError(fmt::format(
        "configuration key 'backend.nats.stream_max_age' is {} ({}); it "
        "must not be negative",
        format_duration(c.backend_nats_stream_max_age),
        origin(o, "backend.nats.stream_max_age")));
  }
  if (c.backend_nats_lease_ttl < std::chrono::seconds(1)) {
    throw ConfigError(fmt::format(
        "configuration key 'backend.nats.lease_ttl' is {} ({}); it must be at "
        "least 1s",
        format_duration(c.backend_nats_lease_ttl),
        origin(o, "backend.nats.lease_ttl")));
  }
  if (c.backend_nats_timeout < std::chrono::milliseconds(1)) {
    throw ConfigError(fmt::format(
        "configuration key 'backend.nats.timeout' is {} ({}); it must be at "
        "least 1ms",
        format_duration(c.backend_nats_timeout),
        origin(o, "backend.nats.timeout")));
  }
  if (c.backend_nats_tls_cert.empty() != c.backend_nats_tls_key.empty()) {
    const bool cert = !c.backend_nats_tls_cert.empty();
    throw ConfigError(fmt::format(
        "configuration key '{}' is set ({}) but '{}' is empty: a client "
        "certificate needs both",
        cert ? "backend.nats.tls_cert" : "backend.nats.tls_key",
        origin(o, cert ? "backend.nats.tls_cert" : "backend.nats.tls_key"),
        cert ? "backend.nats.tls_key" : "backend.nats.tls_cert"));
  }
}

void validate(const RuntimeConfig& c, const Origins& o) {
  check_name_list(o, "subscriptions.halt_on_dead_letter",
                  c.subscriptions_halt_on_dead_letter);
  check_one_of(o, "executor.kind", c.executor_kind,
               {"deterministic", "threaded"});
  check_one_of(o, "subscriptions.start", c.subscriptions_start,
               {"now", "oldest"});
  check_one_of(o, "backend.sqlite.synchronous", c.backend_sqlite_synchronous,
               {"full", "normal"});
  // A backend's own keys set while another backend runs would be ignored:
  // most likely the kind was forgotten, and running on memory instead of
  // the database that was named would lose what the user meant to keep.
  // The nats backend keeps its node's local store in a sqlite database, so
  // it takes the sqlite keys too.
  const bool sqlite_store = c.backend_kind == BackendKind::sqlite ||
                            c.backend_kind == BackendKind::nats;
  for (const auto& [key, where] : o) {
    const bool sqlite_key = key.starts_with("backend.sqlite.");
    const bool nats_key = key.starts_with("backend.nats.");
    if ((sqlite_key && !sqlite_store) ||
        (nats_key && c.backend_kind != BackendKind::nats)) {
      const std::string_view kind = nats_key ? "nats" : "sqlite";
      throw ConfigError(fmt::format(
          "configuration key '{}' is set ({}) but backend.kind is {} ({}); "
          "set backend.kind = {} (HERALD_BACKEND_KIND={}) to run on the "
          "{} backend, or drop '{}'",
          key, where, backend_kind_name(c.backend_kind),
          origin(o, "backend.kind"), kind, kind, kind, key));
    }
  }
  if (sqlite_store && c.backend_sqlite_path.empty()) {
    throw ConfigError(fmt::format(
        "configuration key 'backend.sqlite.path' is empty ({}); "
        "backend.kind = {} ({}) needs a database file{}",
        origin(o, "backend.sqlite.path"), backend_kind_name(c.backend_kind),
        origin(o, "backend.kind"),
        c.backend_kind == BackendKind::nats ? " (the node's local store)"
                                            : ""));
  }
  if (c.backend_kind == BackendKind::nats) validate_nats(c, o);
  check_one_of(o, "log.level", c.log_level,
               {"debug", "info", "warn", "error", "off"});
  check_one_of(o, "metrics.format", c.metrics_format, {"json", "prometheus"});
  check_at_least(o, "retry.max_attempts", c.retry_max_attempts, 1);
  check_at_least(o, "limits.payload_bytes", c.limit_payload_bytes, 1);
  check_at_least(o, "limits.emits_per_invocation", c.limit_emits_per_invocation,
                 1);
  check_at_least(o, "limits.cascade_depth", c.limit_cascade_depth, 0);
  check_at_least(o, "limits.subscriptions_per_event_type",
                 c.limit_subscriptions_per_event_type, 1);
  check_at_least(o, "executor.threads", c.executor_threads, 0);
  check_at_least(o, "agents.max_cached", c.agents_max_cached, 1);
  if (c.retry_base <= Duration::zero()) {
    throw ConfigError(
        fmt::format("configuration key 'retry.base' ({}) must be positive",
                    origin(o, "retry.base")));
  }
  if (c.retry_cap < c.retry_base) {
    throw ConfigError(fmt::format(
        "configuration key 'retry.cap' ({}, {}) is below 'retry.base' ({}, {})",
        format_duration(c.retry_cap), origin(o, "retry.cap"),
        format_duration(c.retry_base), origin(o, "retry.base")));
  }
  if (c.executor_shutdown_timeout < Duration::zero()) {
    throw ConfigError(
        fmt::format("configuration key 'executor.shutdown_timeout' ({}) must "
                    "not be negative",
                    origin(o, "executor.shutdown_timeout")));
  }
  check_node_id(o, c.runtime_node_id);
  if (!(c.retry_jitter >= 0.0 && c.retry_jitter <= 1.0)) {
    throw ConfigError(fmt::format(
        "configuration key 'retry.jitter' is {} ({}); it must be within 0..1",
        c.retry_jitter, origin(o, "retry.jitter")));
  }
}

}  // namespace

DeadLetterPolicy dead_letter_policy(const RuntimeConfig& config,
                                    std::string_view subscription) {
  for (std::string_view item :
       list_items(config.subscriptions_halt_on_dead_letter)) {
    if (item == subscription) return DeadLetterPolicy::halt;
  }
  return DeadLetterPolicy::skip;
}

void check_subscription_names(const RuntimeConfig& config,
                              const std::vector<std::string>& installed) {
  for (std::string_view item :
       list_items(config.subscriptions_halt_on_dead_letter)) {
    if (std::find(installed.begin(), installed.end(), item) != installed.end())
      continue;
    throw ConfigError(fmt::format(
        "configuration key 'subscriptions.halt_on_dead_letter' names '{}', "
        "which is not an installed subscription{}",
        item, did_you_mean(item, installed)));
  }
}

std::vector<std::string> config_list(std::string_view value) {
  std::vector<std::string> out;
  for (std::string_view item : list_items(value)) out.emplace_back(item);
  return out;
}

std::string node_id(const RuntimeConfig& config) {
  return config.runtime_node_id.empty() ? default_node_id()
                                        : config.runtime_node_id;
}

std::string config_env_name(std::string_view key) {
  std::string name = "HERALD_";
  for (char c : key)
    name.push_back(c == '.' ? '_'
                            : static_cast<char>(
                                  std::toupper(static_cast<unsigned char>(c))));
  return name;
}

std::vector<ConfigKeyInfo> config_keys() {
  std::vector<ConfigKeyInfo> out;
  for (const KeyDef& d : key_defs()) {
    out.push_back(ConfigKeyInfo{std::string(d.key), config_env_name(d.key),
                                d.default_text, std::string(d.doc)});
  }
  return out;
}

RuntimeConfig load_config(const ConfigSources& sources) {
  const std::map<std::string, std::string> env =
      sources.environment ? *sources.environment : process_environment();

  // Lowest precedence first; later layers overwrite earlier ones.
  std::vector<Layer> layers;
  std::string file = sources.file;
  if (file.empty()) {
    if (auto it = env.find("HERALD_CONFIG"); it != env.end()) file = it->second;
  }
  if (!file.empty()) layers = read_file(file);

  for (const auto& [name, value] : env) {
    if (!name.starts_with("HERALD_") || !in_runtime_section(name)) continue;
    const KeyDef* match = nullptr;
    for (const KeyDef& d : key_defs()) {
      if (config_env_name(d.key) == name) match = &d;
    }
    if (match == nullptr) {
      std::vector<std::string> env_names;
      for (const std::string& key : key_names())
        env_names.push_back(config_env_name(key));
      throw ConfigError(
          fmt::format("unknown configuration environment variable '{}'{}", name,
                      did_you_mean(name, env_names)));
    }
    layers.push_back(
        Layer{std::string(match->key), value, "environment variable " + name});
  }
  for (const auto& [key, value] : sources.settings)
    layers.push_back(Layer{key, value, "explicit setting"});

  RuntimeConfig config;
  Origins origins;
  for (const Layer& layer : layers) {
    apply(config, layer);
    origins[layer.key] = layer.source;
  }
  validate(config, origins);
  return config;
}

}  // namespace herald
