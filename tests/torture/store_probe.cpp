#include "store_probe.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include <sqlite3.h>

namespace torture {
namespace {

class Db {
 public:
  Db(const std::string& path, int flags) {
    if (sqlite3_open_v2(path.c_str(), &h_, flags, nullptr) != SQLITE_OK) {
      const std::string what = h_ != nullptr ? sqlite3_errmsg(h_) : "no memory";
      sqlite3_close(h_);
      h_ = nullptr;
      throw std::runtime_error(fmt::format("cannot open {}: {}", path, what));
    }
    sqlite3_busy_timeout(h_, 10000);
  }
  ~Db() { sqlite3_close(h_); }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(h_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      const std::string what = error != nullptr ? error : "?";
      sqlite3_free(error);
      throw std::runtime_error(fmt::format("{}: {}", sql, what));
    }
  }

  // Calls `row` with each result row's columns as text ("" for NULL).
  template <class F>
  void query(const std::string& sql, F&& row) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(h_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
      throw std::runtime_error(fmt::format("{}: {}", sql, sqlite3_errmsg(h_)));
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      std::vector<std::string> cols;
      for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
        const unsigned char* t = sqlite3_column_text(stmt, i);
        cols.emplace_back(t != nullptr ? reinterpret_cast<const char*>(t) : "");
      }
      row(cols);
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE)
      throw std::runtime_error(fmt::format("{}: {}", sql, sqlite3_errmsg(h_)));
  }

 private:
  sqlite3* h_ = nullptr;
};

// Whether the runtime has created its tables yet (a process killed at its
// start may have left no file, or an empty one).
bool has_tables(const std::string& db) {
  if (!std::filesystem::exists(db)) return false;
  Db d(db, SQLITE_OPEN_READWRITE);
  bool found = false;
  d.query("SELECT 1 FROM sqlite_master WHERE name = 'dead_letter'",
          [&](const std::vector<std::string>&) { found = true; });
  return found;
}

std::string uuid(std::mt19937_64& rng) {
  const std::uint64_t a = rng();
  const std::uint64_t b = rng();
  return fmt::format("{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}", a >> 32U,
                     (a >> 16U) & 0xffffU, a & 0xfffU,
                     0x8000U | (b >> 48U & 0x3fffU), b & 0xffffffffffffULL);
}

}  // namespace

std::string integrity(const std::string& db) {
  try {
    if (!std::filesystem::exists(db)) return "ok";
    Db d(db, SQLITE_OPEN_READWRITE);
    std::string result;
    d.query("PRAGMA integrity_check", [&](const std::vector<std::string>& c) {
      if (!result.empty()) result += "; ";
      result += c.at(0);
    });
    return result;
  } catch (const std::exception& e) {
    return e.what();
  }
}

std::vector<TimeFault> time_going_back(
    const std::string& db, std::map<std::string, std::int64_t>& heads) {
  std::vector<TimeFault> found;
  if (!has_tables(db)) return found;
  Db d(db, SQLITE_OPEN_READWRITE);
  std::map<std::string, std::int64_t> old_max, last_new, last_position, seen;
  std::set<std::string> reported;
  d.query(
      "SELECT context, position, emitted_at FROM log ORDER BY context, "
      "position",
      [&](const std::vector<std::string>& c) {
        const std::string& context = c.at(0);
        const std::int64_t position = std::stoll(c.at(1));
        const std::int64_t at = std::stoll(c.at(2));
        seen[context] = position;
        if (position <= heads[context]) {
          old_max[context] = std::max(old_max[context], at);
          return;
        }
        if (at < old_max[context] && reported.insert("time/" + context).second)
          found.push_back(
              {"time", fmt::format("{}: position {}, written after a restart, "
                                   "was emitted at {} ns, before an entry "
                                   "written earlier ({} ns)",
                                   context, position, at, old_max[context])});
        if (last_new.count(context) != 0 && at < last_new[context] &&
            reported.insert("order/" + context).second)
          found.push_back(
              {"time-order",
               fmt::format("{}: position {} was emitted at {} ns, before "
                           "position {} ({} ns)",
                           context, position, at, last_position[context],
                           last_new[context])});
        last_new[context] = at;
        last_position[context] = position;
      });
  for (const auto& [context, position] : seen) heads[context] = position;
  return found;
}

std::set<LetterKey> dead_letter_keys(const std::string& db) {
  std::set<LetterKey> keys;
  if (!has_tables(db)) return keys;
  Db d(db, SQLITE_OPEN_READWRITE);
  d.query("SELECT subscription, position, context FROM dead_letter",
          [&](const std::vector<std::string>& c) {
            keys.insert({c.at(0), std::stoll(c.at(1)), c.at(2)});
          });
  return keys;
}

std::map<std::string, std::int64_t> log_heads(const std::string& db) {
  std::map<std::string, std::int64_t> heads;
  if (!has_tables(db)) return heads;
  Db d(db, SQLITE_OPEN_READWRITE);
  d.query(
      "SELECT context, max(head) FROM (SELECT context, head FROM log_head "
      "UNION ALL SELECT context, max(position) FROM log GROUP BY context) "
      "GROUP BY context",
      [&](const std::vector<std::string>& c) {
        heads[c.at(0)] = std::stoll(c.at(1));
      });
  return heads;
}

std::vector<CorruptRow> corrupt_rows(
    const std::string& db, const std::vector<std::string>& subscribers,
    int count, int& next_publisher, std::mt19937_64& rng) {
  const std::string context = "torture.source";
  if (!has_tables(db)) return {};
  Db d(db, SQLITE_OPEN_READWRITE);
  d.exec("BEGIN IMMEDIATE");
  std::size_t registered = 0;
  for (const std::string& name : subscribers)
    d.query(fmt::format("SELECT 1 FROM subscription WHERE name = '{}' AND "
                        "context = '{}'",
                        name, context),
            [&](const std::vector<std::string>&) { ++registered; });
  if (registered < subscribers.size()) {
    d.exec("ROLLBACK");
    return {};
  }
  std::int64_t head = 0, at = 0;
  d.query(fmt::format("SELECT coalesce(max(position), 0), "
                      "coalesce(max(emitted_at), 0) FROM log WHERE "
                      "context = '{}'",
                      context),
          [&](const std::vector<std::string>& c) {
            head = std::stoll(c.at(0));
            at = std::stoll(c.at(1));
          });
  d.query(
      fmt::format("SELECT head FROM log_head WHERE context = '{}'", context),
      [&](const std::vector<std::string>& c) {
        head = std::max<std::int64_t>(head, std::stoll(c.at(0)));
      });
  std::vector<CorruptRow> rows;
  for (int i = 0; i < count; ++i) {
    CorruptRow row{context, head + 1 + i,
                   fmt::format("corrupt-{}", next_publisher++), i % 2 == 1};
    const std::string id =
        row.bad_id ? fmt::format("not-an-id-{}", row.position) : uuid(rng);
    d.exec(fmt::format(
        "INSERT INTO log(context, position, event_id, event_type, publisher, "
        "sequence, emitted_at, schema_version, causation_id, correlation_id, "
        "depth, payload) VALUES('{}', {}, '{}', 'torture.source.Tick', '{}', "
        "1, {}, 1, NULL, '{}', 0, '{{\"publisher\": \"{}\", \"n\": ')",
        context, row.position, id, row.publisher, at, uuid(rng),
        row.publisher));
    rows.push_back(row);
  }
  d.exec("COMMIT");
  return rows;
}

LockHolder::LockHolder(std::string db, std::chrono::milliseconds hold)
    : thread_([this, db = std::move(db), hold] {
        try {
          Db d(db, SQLITE_OPEN_READWRITE);
          d.exec("BEGIN IMMEDIATE");
          took_ = true;
          std::this_thread::sleep_for(hold);
          d.exec("ROLLBACK");
        } catch (const std::exception&) {
          // Not taken (the program held it longer than our busy timeout):
          // took() stays false and the harness counts no lock fault.
        }
      }) {}

bool LockHolder::finish() {
  if (thread_.joinable()) thread_.join();
  return took_.load();
}

LockHolder::~LockHolder() { finish(); }

}  // namespace torture
