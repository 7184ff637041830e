#include "e2e/abort.h"

#include "e2e.hpp"
#include "e2e/abort/audit.h"

namespace herald::e2e {

TEST_CASE("abort: a fault after := and Events.emit commits neither") {
  World w;
  w.rt.install(::e2e::abort::context());
  w.rt.install(::e2e::abort::audit::context());
  Transcript t("abort");

  auto account =
      ::e2e::abort::Account::at(w.rt, ::e2e::abort::AccountId::from_raw("a-1"));
  account.deposit(40);
  t.say("deposit 40: ok, balance {}", account.balanceOf());
  t.say("deposit 500: {}", fault_of([&] { account.deposit(500); }));
  t.say("balance after the fault: {}", account.balanceOf());
  w.executor.run_all();

  auto journal = ::e2e::abort::audit::Journal::at(w.rt, "deposits");
  t.say("journal: {}", join(journal.all()));
  t.say("Deposited released {}, aborted {}",
        w.type_metric("e2e.abort.Deposited", "released"),
        w.type_metric("e2e.abort.Deposited", "aborted"));
  for (const auto& line : w.log.lines("handler.fault")) {
    t.say("fault logged: handler {} message {}",
          line["handler"].get<std::string>(),
          line["message"].get<std::string>());
  }
  t.check();
}

}  // namespace herald::e2e
