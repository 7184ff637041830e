#include <algorithm>
#include <regex>

#include "e2e.hpp"
#include "e2e/envelope.h"

namespace herald::e2e {

namespace {

// Event ids are random; name each by the order it first appears in, so the
// transcript shows which ids are equal.
std::vector<std::string> canonical_ids(std::vector<std::string> lines) {
  const std::regex uuid("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  std::map<std::string, std::string> names;
  for (std::string& line : lines) {
    std::string out;
    auto begin = std::sregex_iterator(line.begin(), line.end(), uuid);
    std::size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
      out += line.substr(last, static_cast<std::size_t>(it->position()) - last);
      auto [name, fresh] = names.try_emplace(it->str(), fmt::format("<id{}>", names.size() + 1));
      out += name->second;
      last = static_cast<std::size_t>(it->position() + it->length());
    }
    out += line.substr(last);
    line = std::move(out);
  }
  return lines;
}

}  // namespace

TEST_CASE("envelope: ids, sequences, causation, correlation and depth through a two-step cascade") {
  World w;
  w.rt.install(::e2e::envelope::context());
  Transcript t("envelope");

  auto orders = ::e2e::envelope::Orders::at(w.rt, "shop");
  orders.place("o-1");
  orders.place("o-2");
  w.executor.run_all();

  std::vector<std::string> lines = ::e2e::envelope::Trace::at(w.rt, "t").all();
  // Per step in delivery order; the two subscribers of Placed side by side.
  std::stable_sort(lines.begin(), lines.end(), [](const std::string& a, const std::string& b) {
    auto rank = [](const std::string& l) {
      return l.starts_with("placed") ? 0 : l.starts_with("packed") ? 1 : 2;
    };
    return rank(a) < rank(b);
  });
  for (const std::string& line : canonical_ids(lines)) t.say("{}", line);
  t.check();
}

}  // namespace herald::e2e
