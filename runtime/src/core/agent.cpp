#include "herald/agent.hpp"

#include <atomic>

#include <fmt/format.h>

#include "herald/agent_kind.hpp"

namespace herald {
namespace {
std::uint32_t next_kind_index() {
  static std::atomic<std::uint32_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

AgentKindBase::AgentKindBase(std::string context, std::string name,
                             std::int64_t state_version)
    : context_(std::move(context)),
      name_(std::move(name)),
      qualified_(context_ + "." + name_),
      index_(next_kind_index()),
      state_version_(state_version) {}

void AgentKindBase::check_state_version(std::string_view where,
                                        std::string_view key,
                                        std::int64_t state_version) const {
  if (state_version <= state_version_) return;
  throw NewerAgentState(fmt::format(
      "{}{}stored state of agent {} {} is at state version {}, newer than "
      "version {} that this build reads; it is kept unchanged: run the "
      "build that wrote it",
      where, where.empty() ? "" : ": ", qualified_, key, state_version,
      state_version_));
}

void detail::bad_agent_kind(const AgentKindBase& kind, std::string_view what) {
  throw RegistrationError(
      fmt::format("agent kind {} has {}", kind.qualified(), what));
}

AgentInstanceBase::AgentInstanceBase(Runtime& rt, Executor& executor,
                                     const AgentKindBase& kind, std::string key,
                                     InvocationSite site)
    : runtime_(rt),
      executor_(executor),
      kind_(kind),
      key_(std::move(key)),
      site_(site) {}

void AgentInstanceBase::acquire() {
  // A handler on this thread cannot get here (host calls refuse to run
  // inside one), so waiting is safe: whoever holds the agent releases it.
  std::unique_lock lock(mutex_);
  free_.wait(lock, [this] { return !running_; });
  running_ = true;
}

void AgentInstanceBase::release() {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    running_ = false;
    if (!mailbox_.empty() && !queued_ && !held_) wake = queued_ = true;
  }
  free_.notify_one();
  if (wake) executor_.schedule(*this);
}

void AgentInstanceBase::post(AgentMessage message) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    mailbox_.push_back(std::move(message));
    // While held, release() (or resume()) schedules the mailbox.
    if (!running_ && !queued_ && !held_) wake = queued_ = true;
  }
  if (wake) executor_.schedule(*this);
}

void AgentInstanceBase::run() {
  AgentMessage message;
  {
    std::lock_guard lock(mutex_);
    queued_ = false;
    // A host call holds the agent: its release() reschedules us; a held
    // mailbox waits for resume().
    if (running_ || held_ || mailbox_.empty()) return;
    running_ = true;
    message = std::move(mailbox_.front());
    mailbox_.pop_front();
  }
  // Released on every path, so a fault cannot leave host calls waiting.
  HeldAgent held(*this, HeldAgent::Adopt{});
  detail::run_message(runtime_, *this, message);
}

void AgentInstanceBase::hold(AgentMessage message) {
  std::lock_guard lock(mutex_);
  mailbox_.push_front(std::move(message));
  held_ = true;
}

void AgentInstanceBase::resume() {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    held_ = false;
    if (!running_ && !queued_ && !mailbox_.empty()) wake = queued_ = true;
  }
  if (wake) executor_.schedule(*this);
}

bool AgentInstanceBase::idle() {
  std::lock_guard lock(mutex_);
  return !running_ && !queued_ && mailbox_.empty();
}

}  // namespace herald
