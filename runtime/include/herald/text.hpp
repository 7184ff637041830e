#pragma once
// The text forms string interpolation prints (language reference, section
// 8): numbers, strings and bools as themselves, `()`, `Some(x)` and `None`,
// lists `[a, b]`, maps `[k: v]` (`[:]` when empty), instants in ISO-8601
// UTC and durations as the runtime writes them. Generated types add their
// own `append_text` overloads in their namespaces; `herald::text` calls
// `append_text` unqualified, so argument-dependent lookup finds them, also
// for elements of containers.
#include <concepts>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "herald/ops.hpp"
#include "herald/time.hpp"

namespace herald {

class EventId;
struct EventEnvelope;

inline void append_text(std::string& out, std::string_view s) { out += s; }
inline void append_text(std::string& out, const std::string& s) { out += s; }
inline void append_text(std::string& out, const char* s) { out += s; }

// Constrained so that nothing converts to bool (a pointer would) or to a
// number on its way here.
template <class T>
requires std::same_as<T, bool>
void append_text(std::string& out, T b) { out += b ? "true" : "false"; }

// Out of line (text.cpp), so that the text form of every record and event
// field calls them instead of compiling std::to_chars where it is used.
namespace detail {
void append_signed(std::string& out, long long n);
void append_unsigned(std::string& out, unsigned long long n);
// The shortest form that reads back as the same double, always with a
// point or an exponent, so that `1.0` does not print as an Int would.
void append_float(std::string& out, double d);
}  // namespace detail

template <class T>
requires std::integral<T> &&(!std::same_as<T, bool>)&&(
    !std::same_as<T, char>)void append_text(std::string& out, T n) {
  if constexpr (std::is_signed_v<T>) {
    detail::append_signed(out, n);
  } else {
    detail::append_unsigned(out, n);
  }
}

template <class T>
requires std::floating_point<T>
void append_text(std::string& out, T d) {
  detail::append_float(out, static_cast<double>(d));
}

inline void append_text(std::string& out, Unit) { out += "()"; }
inline void append_text(std::string& out, const Instant& at) {
  out += format_instant(at);
}
inline void append_text(std::string& out, const Duration& d) {
  out += format_duration(d);
}
void append_text(std::string& out, const EventId& id);

template <class T>
void append_text(std::string& out, const std::optional<T>& value);
template <class T>
void append_text(std::string& out, const std::vector<T>& list);
template <class K, class V>
void append_text(std::string& out, const std::map<K, V>& map);

template <class T>
void append_text(std::string& out, const std::optional<T>& value) {
  if (!value) {
    out += "None";
    return;
  }
  out += "Some(";
  append_text(out, *value);
  out += ')';
}

template <class T>
void append_text(std::string& out, const std::vector<T>& list) {
  out += '[';
  bool first = true;
  for (const T& item : list) {
    if (!first) out += ", ";
    append_text(out, item);
    first = false;
  }
  out += ']';
}

template <class K, class V>
void append_text(std::string& out, const std::map<K, V>& map) {
  if (map.empty()) {
    out += "[:]";
    return;
  }
  out += '[';
  bool first = true;
  for (const auto& [key, value] : map) {
    if (!first) out += ", ";
    append_text(out, key);
    out += ": ";
    append_text(out, value);
    first = false;
  }
  out += ']';
}

// Out of line (text.cpp), so that this header needs neither type complete.
void append_text(std::string& out, const EventEnvelope& env);

// `"a \(b) c"` is `herald::text("a ", b, " c")`.
template <class... Parts>
std::string text(const Parts&... parts) {
  std::string out;
  (append_text(out, parts), ...);
  return out;
}

}  // namespace herald
