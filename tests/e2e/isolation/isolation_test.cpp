#include "e2e/isolation.h"

#include "e2e.hpp"
#include "e2e/isolation/subs.h"

namespace herald::e2e {

TEST_CASE(
    "isolation: a faulting subscriber affects neither its siblings nor the "
    "publisher") {
  World w(Settings{{"retry.max_attempts", "2"}});
  w.rt.install(::e2e::isolation::context());
  w.rt.install(::e2e::isolation::subs::context());
  Transcript t("isolation");

  auto source = ::e2e::isolation::Source::at(w.rt, "s");
  for (std::int64_t n = 1; n <= 5; ++n) source.ping(n);
  w.executor.run_all();

  using ::e2e::isolation::subs::Tally;
  t.say("publisher committed {} pings", source.count());
  t.say("first:  {}", join(Tally::at(w.rt, "first").all()));
  t.say("faulty: {}", join(Tally::at(w.rt, "faulty").all()));
  t.say("last:   {}", join(Tally::at(w.rt, "last").all()));
  for (const char* sub :
       {"e2e.isolation.subs.First", "e2e.isolation.subs.Faulty",
        "e2e.isolation.subs.Last"}) {
    t.say("{}: delivered {}, retried {}, dead-lettered {}", sub,
          w.sub_metric(sub, "delivered"), w.sub_metric(sub, "retried"),
          w.sub_metric(sub, "deadLettered"));
  }
  for (const DeadLetter& letter :
       w.rt.dead_letters("e2e.isolation.subs.Faulty")) {
    t.say("dead letter: attempts {}, last error {}", letter.attempts,
          letter.last_error);
  }
  t.check();
}

}  // namespace herald::e2e
