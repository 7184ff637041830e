#include "herald/publisher_ids.hpp"

#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

namespace herald {
namespace {

struct Table {
  std::mutex mutex;
  std::deque<std::string> ids;  // a deque: the strings never move
  std::unordered_map<std::string_view, const std::string*> by_text;
};

Table& table() {
  // Never destroyed: stores and envelopes of objects with static storage
  // may point into it until the process ends.
  static Table* t = new Table();
  return *t;
}

}  // namespace

std::string_view intern_publisher_id(std::string_view id) {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  auto it = t.by_text.find(id);
  if (it != t.by_text.end()) return *it->second;
  const std::string& copy = t.ids.emplace_back(id);
  t.by_text.emplace(copy, &copy);
  return copy;
}

}  // namespace herald
