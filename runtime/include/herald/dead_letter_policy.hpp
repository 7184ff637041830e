#pragma once
// What a subscription's lane does when one of its deliveries is
// dead-lettered (subscriptions.halt_on_dead_letter): `skip` goes on with the
// publisher's next event; `halt` stops that publisher's lane on the
// subscription, like a stopped partition, until the letter is re-driven
// (and commits) or skipped (Runtime::skip_dead_letter). The dead letter
// records the policy it was written under, so a halted lane stays halted
// across restarts.
#include <optional>
#include <string_view>

namespace herald {

enum class DeadLetterPolicy { skip, halt };

constexpr std::string_view dead_letter_policy_name(DeadLetterPolicy policy) {
  switch (policy) {
    case DeadLetterPolicy::skip:
      return "skip";
    case DeadLetterPolicy::halt:
      return "halt";
  }
  return "skip";
}

}  // namespace herald
