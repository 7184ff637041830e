#include "sqlite_counters.hpp"

namespace herald::sqlite_detail {

namespace {

// The value after `key`'s: staged by this batch, else kept, else `load()`ed
// (the statement is bound only then, not for every emission).
template <class Values, class Load>
std::int64_t next(Values& staged, const Values& kept, std::string_view key,
                  Load load) {
  if (auto it = staged.find(key); it != staged.end()) return ++it->second;
  const auto k = kept.find(key);
  const std::int64_t value = (k != kept.end() ? k->second : load()) + 1;
  staged.emplace(std::string(key), value);
  return value;
}

std::int64_t first_column(SQLite::Statement& s) {
  Use q(s);
  return q->executeStep() ? q->getColumn(0).getInt64() : 0;
}

}  // namespace

std::int64_t SqliteCounters::next_position(const std::string& context) {
  return next(staged_heads_, heads_, context, [&] {
    sql_.log_head.bind(1, context);
    return first_column(sql_.log_head);
  });
}

std::int64_t SqliteCounters::next_sequence(const std::string& context,
                                           std::string_view publisher) {
  std::string key = context;
  key.push_back('\0');
  key.append(publisher);
  return next(staged_sequences_, sequences_, key, [&] {
    sql_.sequence_get.bind(1, context);
    sql_.sequence_get.bind(2, text(publisher));
    return first_column(sql_.sequence_get);
  });
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
