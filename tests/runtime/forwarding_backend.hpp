// A Backend that forwards every call to another one: a test derives from it
// and overrides the calls it watches or changes.
#pragma once

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "herald/backend.hpp"

namespace herald::test {

class ForwardingBackend : public Backend {
 public:
  explicit ForwardingBackend(std::unique_ptr<Backend> inner)
      : inner_(std::move(inner)) {}
  std::string_view name() const override { return inner_->name(); }
  ContextLog& context_log(std::string_view context) override {
    return inner_->context_log(context);
  }
  std::unique_ptr<Publication> attach(std::string_view context, ContextLog& log,
                                      Router& router,
                                      PublicationOptions options) override {
    return inner_->attach(context, log, router, options);
  }
  SubscriptionStore& subscription_store(
      std::string_view subscription) override {
    return inner_->subscription_store(subscription);
  }
  std::shared_ptr<const void> load_agent_state(const AgentKindBase& kind,
                                               std::string_view key) override {
    return inner_->load_agent_state(kind, key);
  }
  bool idempotency_seen(std::string_view scope, std::string_view key,
                        Instant now) override {
    return inner_->idempotency_seen(scope, key, now);
  }
  std::vector<AgentMessage> pending_messages() override {
    return inner_->pending_messages();
  }
  bool message_pending(const MessageId& id) override {
    return inner_->message_pending(id);
  }
  std::uint32_t message_attempts(const MessageId& id) override {
    return inner_->message_attempts(id);
  }
  void record_message_attempt(const MessageId& id,
                              std::uint32_t attempts) override {
    inner_->record_message_attempt(id, attempts);
  }
  void dead_message(DeadMessage message) override {
    inner_->dead_message(std::move(message));
  }
  std::vector<DeadMessage> dead_messages() override {
    return inner_->dead_messages();
  }
  std::size_t purge_expired(Instant now) override {
    return inner_->purge_expired(now);
  }
  Instant latest_time() override { return inner_->latest_time(); }
  void commit(CommitRecord& record) override { inner_->commit(record); }

 protected:
  Backend& inner() { return *inner_; }

 private:
  std::unique_ptr<Backend> inner_;
};

}  // namespace herald::test
