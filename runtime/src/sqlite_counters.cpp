#include "sqlite_counters.hpp"

namespace herald::sqlite_detail {

std::int64_t SqliteCounters::next(Values& staged, Values& kept, std::string key,
                                  SQLite::Statement& load) {
  auto it = staged.find(key);
  if (it != staged.end()) return ++it->second;
  std::int64_t current = 0;
  if (auto k = kept.find(key); k != kept.end()) {
    current = k->second;
  } else {
    Use q(load);
    if (q->executeStep()) current = q->getColumn(0).getInt64();
  }
  staged.emplace(std::move(key), current + 1);
  return current + 1;
}

std::int64_t SqliteCounters::next_position(const std::string& context) {
  SQLite::Statement& load = sql_.log_head;
  load.bind(1, context);
  return next(staged_heads_, heads_, context, load);
}

std::int64_t SqliteCounters::next_sequence(const std::string& context,
                                           std::string_view publisher) {
  SQLite::Statement& load = sql_.sequence_get;
  load.bind(1, context);
  load.bind(2, text(publisher));
  std::string key = context;
  key.push_back('\0');
  key.append(publisher);
  return next(staged_sequences_, sequences_, std::move(key), load);
}

void SqliteCounters::committed() noexcept {
  try {
    if (sequences_.size() + staged_sequences_.size() > kKept)
      sequences_.clear();
    for (auto& [key, value] : staged_heads_) heads_[key] = value;
    for (auto& [key, value] : staged_sequences_) sequences_[key] = value;
  } catch (const std::bad_alloc&) {
    // Not kept: the next use reads the committed value from its table.
    heads_.clear();
    sequences_.clear();
  }
  begin();
}

void SqliteCounters::begin() noexcept {
  staged_heads_.clear();
  staged_sequences_.clear();
}

}  // namespace herald::sqlite_detail
