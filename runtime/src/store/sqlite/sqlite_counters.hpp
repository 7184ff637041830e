#pragma once
// Internal to the sqlite backend: the log heads and publisher sequences as
// the commits of this process assign them. The backend holds the database's
// lock, so only its own commits move them: each is read on first use (the
// larger of its floor and what the log holds: runtime/docs/sqlite-schema.md)
// and kept; a commit batch stages the values it assigns (the log rows it
// writes carry them), and they become the kept ones only once it committed
// (a batch that fails leaves no gap in a sequence).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "sqlite_statements.hpp"

namespace herald::sqlite_detail {

class SqliteCounters {
 public:
  explicit SqliteCounters(Statements& sql) : sql_(sql) {}

  // Inside a commit batch's transaction, under the connection's lock.
  std::int64_t next_position(const std::string& context);
  std::int64_t next_sequence(const std::string& context,
                             std::string_view publisher);
  // Once the batch's transaction committed; and at the start of a batch
  // (what a failed one staged is dropped).
  void committed() noexcept;
  void begin() noexcept;

 private:
  using Values = std::map<std::string, std::int64_t, std::less<>>;
  // Kept sequences past this many are dropped and read again on use: one
  // per publisher (agent instance) would otherwise only grow.
  static constexpr std::size_t kKept = 1 << 16;

  Statements& sql_;
  Values heads_;      // context -> head
  Values sequences_;  // context, NUL, publisher -> sequence
  Values staged_heads_;
  Values staged_sequences_;
};

}  // namespace herald::sqlite_detail
