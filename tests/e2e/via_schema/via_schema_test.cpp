#include "e2e.hpp"
#include "e2e/versions.h"

namespace herald::e2e {

TEST_CASE(
    "via schema: each subscription admits the versions its clause names") {
  World w;
  w.rt.install(::e2e::versions::context());
  Transcript t("via_schema");

  auto emitter = ::e2e::versions::Emitter::at(w.rt, "e");
  emitter.change(1);
  emitter.change(2);
  w.executor.run_all();
  for (const char* sub :
       {"Any", "OneToThree", "OnlyOne", "TwoAndUp", "UpToOne"}) {
    t.say("{}: {}", sub, join(::e2e::versions::Hits::at(w.rt, sub).all()));
  }
  t.check();
}

}  // namespace herald::e2e
