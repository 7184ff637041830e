#include <algorithm>
#include <charconv>
#include <string>

#include <llvm/ADT/StringSet.h>

#include "registry/lock.h"

namespace herald::registry {

namespace {

bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

bool isIdentifier(std::string_view s) {
  return !s.empty() && !(s[0] >= '0' && s[0] <= '9') &&
         std::all_of(s.begin(), s.end(), isNameChar);
}

// `a.b.C`: identifiers joined by dots.
bool isQualified(std::string_view s) {
  while (true) {
    std::size_t dot = s.find('.');
    if (!isIdentifier(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

std::optional<std::int64_t> positive(std::string_view s) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || value < 1 ||
      s[0] == '0')
    return std::nullopt;
  return value;
}

class Reader {
 public:
  ParsedLock read(std::string_view text) {
    std::uint32_t line = 0;
    while (!text.empty() && !result_.error) {
      ++line;
      std::size_t newline = text.find('\n');
      std::string_view current = text.substr(0, newline);
      text.remove_prefix(newline == std::string_view::npos ? text.size()
                                                           : newline + 1);
      if (!current.empty() && current.back() == '\r') current.remove_suffix(1);
      this->line(line, current);
    }
    if (!result_.error) finish();
    return std::move(result_);
  }

 private:
  void fail(std::uint32_t line, std::string message) {
    result_.error = LockError{line, std::move(message)};
  }

  void line(std::uint32_t line, std::string_view text) {
    if (text.empty() || text[0] == '#') return;
    if (text.rfind("event ", 0) == 0) return entry(line, text.substr(6), false);
    if (text.rfind("agent ", 0) == 0) return entry(line, text.substr(6), true);
    if (text.rfind("  ", 0) == 0) {
      if (inAgent_) return store(line, text.substr(2));
      return field(line, text.substr(2));
    }
    fail(line,
         "expected 'event <name> <version>', 'agent <name> <version>', an "
         "indented field or store, a comment or a blank line");
  }

  // `event <name> <version>` or `agent <name> <version>`.
  void entry(std::uint32_t line, std::string_view rest, bool agent) {
    std::string what = agent ? "agent" : "event";
    std::size_t space = rest.find(' ');
    std::string_view name = rest.substr(0, space);
    if (!isQualified(name)) {
      fail(line,
           "'" + std::string(name) + "' is not a qualified " + what + " name");
      return;
    }
    std::optional<std::int64_t> version;
    if (space != std::string_view::npos)
      version = positive(rest.substr(space + 1));
    if (!version) {
      fail(line, what + " '" + std::string(name) +
                     "' needs a positive version after its name");
      return;
    }
    if (!(agent ? agentNames_ : names_).insert(name).second) {
      fail(line, what + " '" + std::string(name) + "' is listed twice");
      return;
    }
    if (agent)
      result_.lock.agents.push_back({std::string(name), *version, {}, line});
    else
      result_.lock.events.push_back({std::string(name), *version, {}, line});
    inAgent_ = agent;
    fieldNames_ = llvm::StringSet<>();  // clear() would cost its capacity
  }

  // `<store>: <type>`, `<store>: <type> = initialiser` or
  // `<store>: <type> = initialiser, since <version>`.
  void store(std::uint32_t line, std::string_view rest) {
    std::size_t colon = rest.find(": ");
    std::string_view name = rest.substr(0, colon);
    if (colon == std::string_view::npos || !isIdentifier(name)) {
      fail(line,
           "expected '<store>: <type>' or '<store>: <type> = initialiser' "
           "with an optional ', since <version>'");
      return;
    }
    std::string_view type = rest.substr(colon + 2);
    LockStore entry{std::string(name), {}, false, 1};
    if (std::size_t eq = type.find(" = "); eq != std::string_view::npos) {
      std::string_view attributes = type.substr(eq + 3);
      type = type.substr(0, eq);
      constexpr std::string_view kInit = "initialiser";
      constexpr std::string_view kSince = ", since ";
      std::optional<std::int64_t> since = 1;
      if (attributes.rfind(kInit, 0) != 0) {
        since.reset();
      } else if (attributes.size() > kInit.size()) {
        std::string_view tail = attributes.substr(kInit.size());
        since = tail.rfind(kSince, 0) == 0
                    ? positive(tail.substr(kSince.size()))
                    : std::nullopt;
      }
      if (!since) {
        fail(line, "store '" + std::string(name) +
                       "' needs 'initialiser' or 'initialiser, since "
                       "<version>' after ' = '");
        return;
      }
      entry.initialiser = true;
      entry.since = *since;
    }
    const LockAgent& agent = result_.lock.agents.back();
    if (entry.since > agent.version) {
      fail(line, "store '" + std::string(name) + "' is added at version " +
                     std::to_string(entry.since) + ", after the agent's " +
                     std::to_string(agent.version));
      return;
    }
    if (type.empty() || type.find(' ') == 0) {
      fail(line, "store '" + std::string(name) + "' has no type");
      return;
    }
    if (!fieldNames_.insert(name).second) {
      fail(line, "store '" + std::string(name) + "' is listed twice");
      return;
    }
    entry.type = std::string(type);
    result_.lock.agents.back().stores.push_back(std::move(entry));
  }

  void field(std::uint32_t line, std::string_view rest) {
    if (result_.lock.events.empty()) {
      fail(line, "a field line must follow an 'event' line");
      return;
    }
    std::size_t colon = rest.find(": ");
    std::string_view name = rest.substr(0, colon);
    if (colon == std::string_view::npos || !isIdentifier(name)) {
      fail(line, "expected '<field>: <type>' or '<field>: <type> = <default>'");
      return;
    }
    std::string_view type = rest.substr(colon + 2);
    std::optional<std::string> value;
    // Types never contain '=', so the first " = " ends the type.
    if (std::size_t eq = type.find(" = "); eq != std::string_view::npos) {
      value = std::string(type.substr(eq + 3));
      type = type.substr(0, eq);
      if (value->empty()) {
        fail(line, "field '" + std::string(name) + "' has an empty default");
        return;
      }
    }
    if (type.empty() || type.find(' ') == 0) {
      fail(line, "field '" + std::string(name) + "' has no type");
      return;
    }
    if (!fieldNames_.insert(name).second) {
      fail(line, "field '" + std::string(name) + "' is listed twice");
      return;
    }
    result_.lock.events.back().fields.push_back(
        {std::string(name), std::string(type), std::move(value)});
  }

  // A hand-edited lock may list events or fields out of order; the lock
  // written back is sorted.
  void finish() {
    std::vector<LockEvent>& events = result_.lock.events;
    std::sort(events.begin(), events.end(),
              [](const LockEvent& a, const LockEvent& b) {
                return a.qualified < b.qualified;
              });
    for (LockEvent& event : events)
      std::sort(event.fields.begin(), event.fields.end(),
                [](const LockField& a, const LockField& b) {
                  return a.name < b.name;
                });
    std::vector<LockAgent>& agents = result_.lock.agents;
    std::sort(agents.begin(), agents.end(),
              [](const LockAgent& a, const LockAgent& b) {
                return a.qualified < b.qualified;
              });
    for (LockAgent& agent : agents)
      std::sort(agent.stores.begin(), agent.stores.end(),
                [](const LockStore& a, const LockStore& b) {
                  return a.name < b.name;
                });
  }

  ParsedLock result_;
  bool inAgent_ = false;
  llvm::StringSet<> names_;
  llvm::StringSet<> agentNames_;
  llvm::StringSet<> fieldNames_;
};

}  // namespace

ParsedLock parseLock(std::string_view text) { return Reader().read(text); }

}  // namespace herald::registry
