#pragma once
// A deterministic runtime with the commerce fixture installed.
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "canonical_ids.hpp"
#include "commerce/notifications.h"
#include "commerce/order.h"
#include "herald/agent_kind.hpp"
#include "herald/backend.hpp"
#include "herald/dead_message.hpp"
#include "herald/deterministic_executor.hpp"
#include "herald/invocation.hpp"
#include "herald/log.hpp"
#include "herald/runtime.hpp"
#include "herald/service.hpp"
#include "herald/sqlite_backend.hpp"
#include "temp_database.hpp"

namespace herald::test {

using commerce::order::AuthId;
using commerce::order::InternalCaller;
using commerce::order::Money;
using commerce::order::Order;
using commerce::order::OrderId;
using commerce::order::PaymentConfirmed;
using commerce::order::UserId;

// The host's Gateway: fails while told to.
class SwitchableGateway final : public commerce::notifications::Gateway {
 public:
  void notify(const UserId& user, const std::string& text) override {
    ++calls;
    if (crash_process) throw SimulatedCrash{};
    if (always_fail || fail_next > 0) {
      if (fail_next > 0) --fail_next;
      throw std::runtime_error("gateway unavailable for " + user.raw());
    }
    sent.push_back(text);
  }
  bool always_fail = false;
  bool crash_process = false;  // the call takes the process down
  int fail_next = 0;
  int calls = 0;
  std::vector<std::string> sent;
};

using herald::test_support::canonical_ids;

inline RuntimeConfig deterministic_config(
    std::map<std::string, std::string> settings = {}) {
  settings.emplace("executor.kind", "deterministic");
  ConfigSources sources;
  sources.settings = std::move(settings);
  sources.environment = std::map<std::string, std::string>{};
  return load_config(sources);
}

// The deterministic configuration on a sqlite database, without log lines.
inline RuntimeConfig sqlite_config(const std::string& path) {
  return deterministic_config({{"backend.kind", "sqlite"},
                               {"backend.sqlite.path", path},
                               {"log.level", "off"}});
}

// How a World of kind nats opens its backend, given its local store's
// options: set by the nats tests (tests/nats/conformance_test.cpp), whose
// binary starts the servers; unset elsewhere.
using NatsBackendFactory =
    std::function<std::shared_ptr<Backend>(SqliteBackendOptions local)>;
inline NatsBackendFactory& nats_backend_factory() {
  static NatsBackendFactory factory;
  return factory;
}

// The runtime over a backend that outlives it: restart() is a real restart
// (a new Runtime over the same store, then recover()), and a crash the
// deterministic executor simulates stops the run until the test restarts.
// On memory the backend object plays the durable store; on sqlite (and on
// nats, whose node keeps its store in sqlite) a restart destroys the
// backend and opens a new one on the same database file.
struct World {
  explicit World(std::uint64_t seed = 1,
                 std::map<std::string, std::string> settings = {},
                 std::function<void(Runtime&)> extra = {},
                 std::function<void(CommitPoint)> commit_hook = {})
      : World(BackendKind::memory, seed, std::move(settings), std::move(extra),
              std::move(commit_hook)) {}

  World(BackendKind kind, std::uint64_t seed = 1,
        std::map<std::string, std::string> settings = {},
        std::function<void(Runtime&)> extra = {},
        std::function<void(CommitPoint)> commit_hook = {})
      : kind(kind),
        executor(seed),
        config(deterministic_config(std::move(settings))),
        extra_(std::move(extra)),
        commit_hook_(std::move(commit_hook)) {
    open_backend();
    start();
  }

  Runtime& rt() { return *runtime_; }

  // Drops the runtime (everything volatile: queues, lanes, timers, agent
  // caches) and starts a new one over the same store.
  void restart() {
    runtime_.reset();
    if (kind != BackendKind::memory) {
      backend.reset();
      open_backend();
    }
    crashed = false;
    ++restarts;
    start();
  }

  // Stops the program as an operator finds it: the runtime gone and, on
  // sqlite and nats, the backend closed with its lock released. restart()
  // starts it again.
  void stop() {
    runtime_.reset();
    if (kind != BackendKind::memory) backend.reset();
  }

  // The sqlite database file (empty on memory).
  const std::string& database_path() const { return database_.path; }

  // Runs until idle and keeps jumping to the next timer; after a simulated
  // crash restarts and goes on, until a run ends without one.
  void run_all() {
    executor.run_all();
    while (crashed) {
      restart();
      executor.run_all();
    }
  }

  // An order placed by `user` for `cents`.  // An order placed by `user` for
  // `cents`.
  Order order(const std::string& id, const std::string& user,
              std::int64_t cents = 1000) {
    Order o = Order::at(rt(), OrderId::from_raw(id));
    o.place(UserId::from_raw(user), Money{cents, "EUR"});
    return o;
  }

  std::vector<std::string> inbox(const std::string& owner) {
    return commerce::notifications::Inbox::at(rt(), owner).messages();
  }

  std::uint64_t sub_metric(const std::string& subscription,
                           const std::string& counter) {
    return rt()
        .metrics_json()["subscriptions"][subscription][counter]
        .get<std::uint64_t>();
  }
  std::uint64_t type_metric(const std::string& type,
                            const std::string& counter) {
    return rt()
        .metrics_json()["eventTypes"][type][counter]
        .get<std::uint64_t>();
  }

  BackendKind kind;
  DeterministicExecutor executor;
  RuntimeConfig config;
  MemoryLogSink log;
  SwitchableGateway gateway;
  bool crashed = false;
  int restarts = 0;

 private:
  void start() {
    runtime_ = std::make_unique<Runtime>(config, executor, backend, &log);
    runtime_->install(commerce::order::context());
    runtime_->install(commerce::notifications::context(gateway));
    if (extra_) extra_(*runtime_);
    // The first start leaves recovery to the first host call, so a test can
    // still install contexts; a restart recovers at once.
    if (restarts > 0) runtime_->recover();
    executor.on_crash([this] { crashed = true; });
  }

  void open_backend() {
    SqliteBackendOptions options;
    options.path = database_.path;
    options.dedup_window = config.dedup_window;
    options.commit_hook = commit_hook_;
    switch (kind) {
      case BackendKind::memory:
        backend = make_memory_backend(
            MemoryBackendOptions{false, config.dedup_window, commit_hook_});
        return;
      case BackendKind::sqlite:
        backend = make_sqlite_backend(std::move(options));
        return;
      case BackendKind::nats:
        if (!nats_backend_factory())
          throw std::logic_error("a nats World needs nats_backend_factory()");
        backend = nats_backend_factory()(std::move(options));
        return;
    }
  }

  std::function<void(Runtime&)> extra_;
  std::function<void(CommitPoint)> commit_hook_;
  TempDatabase database_;

 public:
  std::shared_ptr<Backend> backend;

 private:
  std::unique_ptr<Runtime> runtime_;
};

inline constexpr const char* kDomestic =
    "commerce.notifications.OnDomesticPayment";
inline constexpr const char* kInternational =
    "commerce.notifications.OnInternationalPayment";
inline constexpr const char* kAudit = "commerce.notifications.OnPaymentAudit";
inline constexpr const char* kPaymentConfirmed =
    "commerce.order.PaymentConfirmed";

}  // namespace herald::test
