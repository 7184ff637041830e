// herald::Runtime, the host's handle: it owns the implementation and
// forwards its host API to it (runtime_impl.hpp).
#include "herald/runtime.hpp"

#include "herald/backend.hpp"
#include "herald/dead_message.hpp"
#include "runtime_impl.hpp"

namespace herald {

Runtime::Runtime(RuntimeConfig config, Executor& executor,
                 std::shared_ptr<Backend> backend, LogSink* log_sink)
    : Runtime(std::move(config), executor, std::shared_ptr<LocalStore>(backend),
              std::shared_ptr<Transport>(backend), log_sink) {}

Runtime::Runtime(RuntimeConfig config, Executor& executor,
                 std::shared_ptr<LocalStore> store,
                 std::shared_ptr<Transport> transport, LogSink* log_sink)
    : impl_(std::make_unique<RuntimeImpl>(*this, std::move(config), executor,
                                          std::move(store),
                                          std::move(transport), log_sink)) {}

// Detached before the implementation goes: nothing the executor still holds
// may run against a runtime being torn down.
Runtime::~Runtime() { impl_->executor().detach(); }

void Runtime::install(Context context) {
  std::vector<Context> batch;
  batch.push_back(std::move(context));
  impl_->install(std::move(batch));
}

void Runtime::install(std::vector<Context> contexts) {
  impl_->install(std::move(contexts));
}

void Runtime::recover() { impl_->recover(); }

EventId Runtime::publish(std::string_view context,
                         std::string_view publisher_id, AnyEvent event,
                         std::optional<EventId> event_id) {
  return impl_->publish(context, publisher_id, std::move(event), event_id);
}

std::vector<DeadLetter> Runtime::dead_letters(std::string_view subscription) {
  return impl_->dead_letters(subscription);
}

std::vector<DeadLetter> Runtime::dead_letters() {
  return impl_->dead_letters();
}

bool Runtime::redrive(std::string_view subscription, const EventId& event_id) {
  return impl_->redrive(subscription, event_id);
}

bool Runtime::skip_dead_letter(std::string_view subscription,
                               const EventId& event_id) {
  return impl_->skip_dead_letter(subscription, event_id);
}

std::size_t Runtime::redrive_all(std::string_view subscription) {
  return impl_->redrive_all(subscription);
}

std::vector<DeadMessage> Runtime::dead_messages() {
  return impl_->dead_messages();
}

nlohmann::json Runtime::dead_letter_json(const DeadLetter& letter) const {
  return impl_->dead_letter_json(letter);
}

std::vector<std::string> Runtime::subscriptions_of(
    const EventType& type) const {
  return impl_->subscriptions_of(type);
}

std::size_t Runtime::cached_agents() { return impl_->cached_agents(); }

nlohmann::json Runtime::metrics_json() const { return impl_->metrics_json(); }

std::string Runtime::metrics_prometheus() const {
  return impl_->metrics_prometheus();
}

void Runtime::shutdown() { impl_->shutdown(); }

bool Runtime::stopped() const { return impl_->stopped(); }

const RuntimeConfig& Runtime::config() const { return impl_->config(); }

Executor& Runtime::executor() { return impl_->executor(); }

LocalStore& Runtime::store() { return impl_->store(); }

Transport& Runtime::transport() { return impl_->transport(); }

const RecoveryReport& Runtime::recovery() const { return impl_->recovery(); }

void Runtime::write_log(LogLevel level, nlohmann::json fields) {
  impl_->write_log(level, std::move(fields));
}

}  // namespace herald
