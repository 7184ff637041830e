#include "e2e/envelope.h"

#include <algorithm>

#include "e2e.hpp"

namespace herald::e2e {

TEST_CASE(
    "envelope: ids, sequences, causation, correlation and depth through a "
    "two-step cascade") {
  World w;
  w.rt.install(::e2e::envelope::context());
  Transcript t("envelope");

  auto orders = ::e2e::envelope::Orders::at(w.rt, "shop");
  orders.place("o-1");
  orders.place("o-2");
  w.executor.run_all();

  std::vector<std::string> lines = ::e2e::envelope::Trace::at(w.rt, "t").all();
  // Per step in delivery order; the two subscribers of Placed side by side.
  std::stable_sort(
      lines.begin(), lines.end(),
      [](const std::string& a, const std::string& b) {
        auto rank = [](const std::string& l) {
          return l.starts_with("placed") ? 0 : l.starts_with("packed") ? 1 : 2;
        };
        return rank(a) < rank(b);
      });
  for (const std::string& line : lines) t.say("{}", line);
  t.check();
}

}  // namespace herald::e2e
