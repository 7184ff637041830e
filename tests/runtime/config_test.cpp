// Configuration: layering (setting > environment > file > default) and errors.
#include "herald/config.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include <doctest/doctest.h>

#include "herald/deterministic_executor.hpp"
#include "herald/errors.hpp"
#include "herald/threaded_executor.hpp"
#include <unistd.h>

namespace herald::test {
namespace {

struct TempFile {
  explicit TempFile(const std::string& text) {
    static int counter = 0;
    path = (std::filesystem::temp_directory_path() /
            ("herald_config_test_" + std::to_string(::getpid()) + "_" +
             std::to_string(counter++) + ".conf"))
               .string();
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
  std::string path;
};

ConfigSources sources(std::map<std::string, std::string> settings,
                      std::map<std::string, std::string> env,
                      std::string file = "") {
  ConfigSources s;
  s.settings = std::move(settings);
  s.environment = std::move(env);
  s.file = std::move(file);
  return s;
}

}  // namespace

TEST_CASE("Config: defaults match the documented contract") {
  const RuntimeConfig c = load_config(sources({}, {}));
  CHECK(c.limit_payload_bytes == 65536);
  CHECK(c.limit_emits_per_invocation == 1024);
  CHECK(c.limit_cascade_depth == 16);
  CHECK(c.limit_subscriptions_per_event_type == 512);
  CHECK(c.retry_base == std::chrono::milliseconds(100));
  CHECK(c.retry_cap == std::chrono::seconds(30));
  CHECK(c.retry_max_attempts == 5);
  CHECK(c.backend_kind == BackendKind::memory);
  CHECK(config_env_name("limits.payload_bytes") ==
        "HERALD_LIMITS_PAYLOAD_BYTES");
  CHECK(config_keys().size() == 36);
}

TEST_CASE(
    "Config: explicit settings beat the environment, which beats the file, "
    "which beats defaults") {
  TempFile file(
      "# runtime settings\n"
      "retry.base = 250ms\n"
      "retry.max_attempts = 9\n"
      "limits.cascade_depth = \"4\"\n"
      "\n");
  const RuntimeConfig c =
      load_config(sources({{"retry.base", "1s"}},
                          {{"HERALD_RETRY_BASE", "500ms"},
                           {"HERALD_RETRY_MAX_ATTEMPTS", "7"},
                           {"HERALD_UPDATE", "1"},  // another tool's variable
                           {"PATH", "/bin"}},
                          file.path));
  CHECK(c.retry_base == std::chrono::seconds(1));  // setting
  CHECK(c.retry_max_attempts == 7);                // environment
  CHECK(c.limit_cascade_depth == 4);               // file
  CHECK(c.limit_payload_bytes == 65536);           // default
}

TEST_CASE("Config: HERALD_CONFIG names the file when none is given") {
  TempFile file("executor.threads = 3\n");
  const RuntimeConfig c =
      load_config(sources({}, {{"HERALD_CONFIG", file.path}}));
  CHECK(c.executor_threads == 3);
}

TEST_CASE("Config: unknown keys are errors that name the key and its source") {
  CHECK_THROWS_WITH_AS(
      load_config(sources({{"retry.bse", "1s"}}, {})),
      "unknown configuration key 'retry.bse' (explicit setting); did you "
      "mean 'retry.base'?",
      ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(sources({}, {{"HERALD_RETRY_BASEE", "1s"}})),
      "unknown configuration environment variable 'HERALD_RETRY_BASEE'; did "
      "you mean 'HERALD_RETRY_BASE'?",
      ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(sources({{"retry.max_attempt", "3"}}, {})),
      "unknown configuration key 'retry.max_attempt' (explicit setting); did "
      "you mean 'retry.max_attempts'?",
      ConfigError);
  // Nothing near: no guess.
  CHECK_THROWS_WITH_AS(
      load_config(sources({{"cache.size", "3"}}, {})),
      "unknown configuration key 'cache.size' (explicit setting)", ConfigError);
  TempFile file("retry.base = 1s\nlimits.payload = 5\n");
  const std::string expected =
      "unknown configuration key 'limits.payload' (" + file.path + ":2)";
  CHECK_THROWS_WITH_AS(load_config(sources({}, {}, file.path)),
                       expected.c_str(), ConfigError);
}

TEST_CASE(
    "Config: malformed values are errors that name the key and its source") {
  CHECK_THROWS_WITH_AS(
      load_config(sources({}, {{"HERALD_RETRY_BASE", "soon"}})),
      doctest::Contains("malformed value 'soon' for configuration key "
                        "'retry.base' (environment "
                        "variable HERALD_RETRY_BASE)"),
      ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(sources({{"limits.payload_bytes", "12kb"}}, {})),
      doctest::Contains(
          "configuration key 'limits.payload_bytes' (explicit setting)"),
      ConfigError);
  TempFile file("retry.base 1s\n");
  CHECK_THROWS_WITH_AS(load_config(sources({}, {}, file.path)),
                       doctest::Contains(":1: expected 'key = value'"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(load_config(sources({{"backend.kind", "kafka"}}, {})),
                       doctest::Contains("'backend.kind' is 'kafka' (explicit "
                                         "setting); expected one of: memory, "
                                         "sqlite, nats"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(sources({{"backend.kind", "sqlite"}}, {})),
      doctest::Contains("'backend.sqlite.path' is empty (default); "
                        "backend.kind = sqlite (explicit setting) needs a "
                        "database file"),
      ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(sources({{"backend.kind", "sqlite"},
                           {"backend.sqlite.path", "x.db"},
                           {"backend.sqlite.synchronous", "off"}},
                          {})),
      doctest::Contains("'backend.sqlite.synchronous' is 'off' (explicit "
                        "setting); expected one of: full, normal"),
      ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(sources({{"retry.jitter", "1.5"}}, {})),
      doctest::Contains("'retry.jitter' is 1.5 (explicit setting)"),
      ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(sources({}, {{"HERALD_RETRY_MAX_ATTEMPTS", "0"}})),
      doctest::Contains("'retry.max_attempts' is 0 (environment variable "
                        "HERALD_RETRY_MAX_ATTEMPTS)"),
      ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(sources({}, {}, "/nonexistent/herald.conf")),
      doctest::Contains("cannot read config file '/nonexistent/herald.conf'"),
      ConfigError);
}

TEST_CASE(
    "Config: a sqlite key set while another backend runs is an error, not a "
    "silent run on memory") {
  CHECK_THROWS_WITH_AS(
      load_config(sources({}, {{"HERALD_BACKEND_SQLITE_PATH", "x.db"}})),
      "configuration key 'backend.sqlite.path' is set (environment variable "
      "HERALD_BACKEND_SQLITE_PATH) but backend.kind is memory (default); set "
      "backend.kind = sqlite (HERALD_BACKEND_KIND=sqlite) to run on the "
      "sqlite backend, or drop 'backend.sqlite.path'",
      ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(sources({{"backend.kind", "memory"},
                           {"backend.sqlite.synchronous", "normal"}},
                          {})),
      doctest::Contains("'backend.sqlite.synchronous' is set (explicit "
                        "setting) but backend.kind is memory (explicit "
                        "setting)"),
      ConfigError);
  const RuntimeConfig c =
      load_config(sources({}, {{"HERALD_BACKEND_KIND", "sqlite"},
                               {"HERALD_BACKEND_SQLITE_PATH", "x.db"}}));
  CHECK(c.backend_kind == BackendKind::sqlite);
  CHECK(c.backend_sqlite_path == "x.db");
}

TEST_CASE(
    "Config: backend.kind = nats needs its servers, node, contexts and a "
    "local store, and bad values are errors naming the key") {
  const std::map<std::string, std::string> node = {
      {"backend.kind", "nats"},
      {"backend.sqlite.path", "node.db"},
      {"backend.nats.servers", "nats://127.0.0.1:4222, nats://10.0.0.2:4222"},
      {"backend.nats.node", "node-1"},
      {"backend.nats.contexts", "commerce.order, commerce.notifications"}};
  const RuntimeConfig c = load_config(sources(node, {}));
  CHECK(c.backend_kind == BackendKind::nats);
  CHECK(config_list(c.backend_nats_servers) ==
        std::vector<std::string>{"nats://127.0.0.1:4222",
                                 "nats://10.0.0.2:4222"});
  CHECK(config_list(c.backend_nats_contexts) ==
        std::vector<std::string>{"commerce.order", "commerce.notifications"});
  CHECK(c.backend_nats_replicas == 1);
  CHECK(c.backend_nats_lease_ttl == std::chrono::seconds(10));
  CHECK(c.backend_nats_stream_max_age == std::chrono::hours(168));
  CHECK(c.backend_nats_stream_max_bytes == 0);
  auto with = [&](std::string key, std::string value) {
    auto settings = node;
    settings[std::move(key)] = std::move(value);
    return sources(settings, {});
  };
  CHECK_THROWS_WITH_AS(
      load_config(with("backend.sqlite.path", "")),
      doctest::Contains("'backend.sqlite.path' is empty (explicit setting); "
                        "backend.kind = nats (explicit setting) needs a "
                        "database file (the node's local store)"),
      ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(with("backend.nats.servers", " ")),
      doctest::Contains("'backend.nats.servers' is empty (explicit setting); "
                        "backend.kind = nats (explicit setting) needs the "
                        "URLs of its servers"),
      ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(with("backend.nats.servers", "nats://a:4222,,nats://b")),
      doctest::Contains("'backend.nats.servers' is 'nats://a:4222,,nats://b' "
                        "(explicit setting); expected server URLs separated "
                        "by commas"),
      ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(with("backend.nats.node", "node.1")),
      doctest::Contains("'backend.nats.node' is 'node.1' (explicit setting); "
                        "a node name is at most 64 letters, digits, '-' and "
                        "'_'"),
      ConfigError);
  CHECK_THROWS_WITH_AS(load_config(with("backend.nats.contexts", "")),
                       doctest::Contains("'backend.nats.contexts' is empty"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(with("backend.nats.replicas", "7")),
      doctest::Contains("'backend.nats.replicas' is 7 (explicit setting); "
                        "JetStream keeps at most 5 replicas"),
      ConfigError);
  CHECK_THROWS_WITH_AS(load_config(with("backend.nats.lease_ttl", "500ms")),
                       doctest::Contains("'backend.nats.lease_ttl' is 500ms "
                                         "(explicit setting); it must be at "
                                         "least 1s"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(with("backend.nats.stream_max_bytes", "-1")),
      doctest::Contains("'backend.nats.stream_max_bytes' is -1"),
      ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(with("backend.nats.tls_cert", "client.pem")),
      doctest::Contains("'backend.nats.tls_cert' is set (explicit setting) "
                        "but 'backend.nats.tls_key' is empty"),
      ConfigError);
  CHECK_THROWS_WITH_AS(
      load_config(with("backend.nats.lease_tll", "5s")),
      doctest::Contains("unknown configuration key 'backend.nats.lease_tll' "
                        "(explicit setting); did you mean "
                        "'backend.nats.lease_ttl'?"),
      ConfigError);
  // A nats key while another backend runs would be ignored.
  CHECK_THROWS_WITH_AS(
      load_config(sources({{"backend.kind", "sqlite"},
                           {"backend.sqlite.path", "x.db"},
                           {"backend.nats.node", "node-1"}},
                          {})),
      "configuration key 'backend.nats.node' is set (explicit setting) but "
      "backend.kind is sqlite (explicit setting); set backend.kind = nats "
      "(HERALD_BACKEND_KIND=nats) to run on the nats backend, or drop "
      "'backend.nats.node'",
      ConfigError);
}

TEST_CASE("Config: make_executor builds the executor the configuration names") {
  auto det = make_executor(load_config(sources(
      {{"executor.kind", "deterministic"}, {"executor.seed", "9"}}, {})));
  auto* d = dynamic_cast<DeterministicExecutor*>(det.get());
  REQUIRE(d != nullptr);
  DeterministicExecutor same(9);
  CHECK(d->random() == same.random());
  auto thr = make_executor(
      load_config(sources({}, {{"HERALD_EXECUTOR_THREADS", "2"}})));
  auto* t = dynamic_cast<ThreadedExecutor*>(thr.get());
  REQUIRE(t != nullptr);
  CHECK(t->threads() == 2);
}

}  // namespace herald::test
