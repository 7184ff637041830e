#pragma once
// Event ids are random in every run (a restarted process must never mint one
// again), so tests that compare text name each id by the order it first
// appears in: <id1>, <id2>, ... The text then still shows which ids are equal.
#include <map>
#include <regex>
#include <string>

namespace herald::test_support {

inline std::string canonical_ids(const std::string& text) {
  static const std::regex uuid(
      "[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  std::map<std::string, std::string> names;
  std::string out;
  std::size_t last = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), uuid);
       it != std::sregex_iterator(); ++it) {
    out += text.substr(last, static_cast<std::size_t>(it->position()) - last);
    auto [name, fresh] = names.try_emplace(
        it->str(), "<id" + std::to_string(names.size() + 1) + ">");
    out += name->second;
    last = static_cast<std::size_t>(it->position() + it->length());
  }
  out += text.substr(last);
  return out;
}

}  // namespace herald::test_support
