// The seam in two halves: a runtime over a local store and a transport that
// are different objects publishes each context's log through the transport
// it was given, and its subscriptions' acknowledgements land there.
#include <set>

#include <doctest/doctest.h>

#include "test_world.hpp"

namespace herald::test {
namespace {

// A transport of its own: the in-process publication over the log the
// runtime attaches, counting wakes, and subscription records kept in a
// second memory backend that the runtime's local store knows nothing of.
class RecordingTransport final : public Transport {
 public:
  class CountingPublication final : public Publication {
   public:
    CountingPublication(std::unique_ptr<Publication> inner, int& wakes)
        : inner_(std::move(inner)), wakes_(wakes) {}
    void wake() override {
      ++wakes_;
      inner_->wake();
    }
    void resume(std::int64_t position,
                const std::vector<LogEntryPtr>& unsettled) override {
      inner_->resume(position, unsettled);
    }

   private:
    std::unique_ptr<Publication> inner_;
    int& wakes_;
  };

  std::unique_ptr<Publication> attach(std::string_view context, ContextLog& log,
                                      Router& router,
                                      PublicationOptions options) override {
    attached.insert(std::string(context));
    return std::make_unique<CountingPublication>(
        make_local_publication(log, router, options), wakes);
  }
  SubscriptionStore& subscription_store(
      std::string_view subscription) override {
    return records->subscription_store(subscription);
  }

  std::shared_ptr<Backend> records =
      make_memory_backend(MemoryBackendOptions{.concurrent = false});
  std::set<std::string> attached;
  int wakes = 0;
};

struct SplitWorld {
  void start() {
    runtime = std::make_unique<Runtime>(deterministic_config(), executor, store,
                                        transport, &log);
    runtime->install(commerce::order::context());
    runtime->install(commerce::notifications::context(gateway));
  }
  std::vector<std::string> inbox(const std::string& owner) {
    return commerce::notifications::Inbox::at(*runtime, owner).messages();
  }

  DeterministicExecutor executor{1};
  MemoryLogSink log;
  SwitchableGateway gateway;
  std::shared_ptr<Backend> store =
      make_memory_backend(MemoryBackendOptions{.concurrent = false});
  std::shared_ptr<RecordingTransport> transport =
      std::make_shared<RecordingTransport>();
  std::unique_ptr<Runtime> runtime;
};

}  // namespace

TEST_CASE(
    "Seam: a local store and a transport apart: events are published "
    "through the transport and acknowledged into its records") {
  SplitWorld w;
  w.start();
  // Every context's log is attached to the transport at install.
  CHECK(w.transport->attached ==
        std::set<std::string>{"commerce.order", "commerce.notifications"});
  Order o = Order::at(*w.runtime, OrderId::from_raw("o-1"));
  o.place(UserId::from_raw("u-1"), Money{1000, "EUR"});
  o.markPaid(InternalCaller{}, AuthId::from_raw("a"));
  w.executor.run_until_idle();
  CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000"});
  // The commit that logged PaymentConfirmed woke its publication.
  CHECK(w.transport->wakes >= 1);
  // The acknowledgement is in the transport's records, not in the store's.
  const std::string publisher = "commerce.order.Order/o-1";
  CHECK(w.transport->records->subscription_store(kDomestic).acknowledged(
            publisher) == 1);
  CHECK(w.store->subscription_store(kDomestic).acknowledged(publisher) == 0);
  CHECK(w.store->context_log("commerce.order").head() == 1);

  // A restart over the same two: the transport's records say the delivery
  // was acknowledged, so nothing is queued again.
  w.runtime.reset();
  w.start();
  w.runtime->recover();
  CHECK(w.runtime->recovery().deliveries_redriven == 0);
  w.executor.run_all();
  CHECK(w.inbox("u-1") == std::vector<std::string>{"domestic o-1:1000"});
}

TEST_CASE("Seam: a local store without a transport is refused") {
  DeterministicExecutor executor(1);
  MemoryLogSink log;
  std::shared_ptr<Backend> store =
      make_memory_backend(MemoryBackendOptions{.concurrent = false});
  CHECK_THROWS_WITH_AS(
      Runtime(deterministic_config(), executor, store, nullptr, &log),
      doctest::Contains("both a local store and a transport"),
      RegistrationError);
}

}  // namespace herald::test
