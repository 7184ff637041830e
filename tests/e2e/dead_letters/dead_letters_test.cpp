#include "e2e.hpp"
#include "e2e/dead.h"

namespace herald::e2e {

namespace {

// The host's gateway: refuses while down.
class SwitchMailer final : public ::e2e::dead::Mailer {
 public:
  bool send(std::int64_t /*number*/) override {
    ++calls;
    return up;
  }
  bool up = false;
  int calls = 0;
};

}  // namespace

TEST_CASE(
    "dead letters: retries, then a dead letter with attempts and last error, "
    "then a re-drive") {
  SwitchMailer mailer;
  World w(Settings{{"retry.max_attempts", "3"},
                   {"retry.base", "100ms"},
                   {"retry.jitter", "0"}});
  w.rt.install(::e2e::dead::context(mailer));
  Transcript t("dead_letters");
  const std::string sub = "e2e.dead.MailInvoice";

  ::e2e::dead::Billing::at(w.rt, "b").issue(7);
  w.executor.run_until_idle();
  t.say("after the first attempt: calls {}, retried {}, dead letters {}",
        mailer.calls, w.sub_metric(sub, "retried"),
        w.rt.dead_letters(sub).size());
  w.executor.run_all();
  t.say("after every attempt: calls {}, retried {}, dead-lettered {}",
        mailer.calls, w.sub_metric(sub, "retried"),
        w.sub_metric(sub, "deadLettered"));
  const auto letters = w.rt.dead_letters(sub);
  REQUIRE(letters.size() == 1);
  t.say("dead letter: attempts {}, last error '{}', retried for {}",
        letters[0].attempts, letters[0].last_error,
        format_duration(letters[0].last_attempt_at -
                        letters[0].first_attempt_at));
  t.say("sent before the re-drive: {}",
        join(::e2e::dead::Outbox::at(w.rt, "sent").all()));

  mailer.up = true;
  t.say("re-driven: {}", w.rt.redrive(sub, letters[0].event->envelope.eventId));
  w.executor.run_all();
  t.say("sent after the re-drive: {}",
        join(::e2e::dead::Outbox::at(w.rt, "sent").all()));
  t.say("dead letters left: {}, delivered {}", w.rt.dead_letters(sub).size(),
        w.sub_metric(sub, "delivered"));
  t.check();
}

}  // namespace herald::e2e
