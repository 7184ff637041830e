#pragma once
// What generated bodies call for Herald's built-in semantics: the unit
// value, `fail`, Int arithmetic that faults instead of wrapping, and the
// operations of String, List, Option and Map (language reference, section
// 8). Header-only: every function is small enough to inline.
#include <algorithm>
#include <chrono>
#include <compare>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "herald/errors.hpp"

namespace herald {

// `()`: the one value of the unit type.
struct Unit {
  friend constexpr bool operator==(Unit, Unit) = default;
  friend constexpr auto operator<=>(Unit, Unit) = default;
};

// Herald's `fail(message)`: aborts the running handler. The type argument
// lets it stand where a value of any type is expected (`herald::fail<T>`).
template <class T = void>
[[noreturn]] T fail(const std::string& message) {
  throw HandlerFailure(message);
}

namespace ops {

// A fault of Int arithmetic: it aborts the handler as `fail` does, with a
// message naming the operation and its operands.
[[noreturn]] inline void arithmetic_fault(const char* what, std::int64_t a,
                                          const char* op, std::int64_t b) {
  throw HandlerFailure(std::string(what) + ": " + std::to_string(a) + " " + op +
                       " " + std::to_string(b));
}

inline std::int64_t add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r))
    arithmetic_fault("Int overflow", a, "+", b);
  return r;
}

inline std::int64_t sub(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r))
    arithmetic_fault("Int overflow", a, "-", b);
  return r;
}

inline std::int64_t mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    arithmetic_fault("Int overflow", a, "*", b);
  return r;
}

// Truncating, as C++ and the compiler's constant folding divide.
inline std::int64_t div(std::int64_t a, std::int64_t b) {
  if (b == 0) arithmetic_fault("division by zero", a, "/", b);
  if (a == std::numeric_limits<std::int64_t>::min() && b == -1)
    arithmetic_fault("Int overflow", a, "/", b);
  return a / b;
}

// The remainder takes the dividend's sign. The most negative Int modulo -1
// faults as its quotient does, as the compiler's constant folding decides.
inline std::int64_t rem(std::int64_t a, std::int64_t b) {
  if (b == 0) arithmetic_fault("division by zero", a, "%", b);
  if (a == std::numeric_limits<std::int64_t>::min() && b == -1)
    arithmetic_fault("Int overflow", a, "%", b);
  return a % b;
}

inline std::int64_t neg(std::int64_t a) {
  if (a == std::numeric_limits<std::int64_t>::min())
    throw HandlerFailure("Int overflow: -(" + std::to_string(a) + ")");
  return -a;
}

// A Duration literal, in milliseconds: one that does not fit the runtime's
// nanoseconds faults rather than wraps.
inline std::chrono::nanoseconds milliseconds(std::int64_t ms) {
  std::int64_t ns = 0;
  if (__builtin_mul_overflow(ms, std::int64_t{1000000}, &ns))
    throw HandlerFailure("Duration overflow: " + std::to_string(ms) +
                         "ms does not fit in nanoseconds");
  return std::chrono::nanoseconds(ns);
}

// `len` of a String counts Unicode scalar values (the bytes that do not
// continue a UTF-8 sequence), as refinements count them at compile time.
inline std::int64_t len(std::string_view s) {
  std::int64_t count = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
  return count;
}

template <class T>
std::int64_t len(const std::vector<T>& list) {
  return static_cast<std::int64_t>(list.size());
}

template <class K, class V>
std::int64_t len(const std::map<K, V>& map) {
  return static_cast<std::int64_t>(map.size());
}

inline bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

template <class T>
bool contains(const std::vector<T>& list, const T& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// ASCII letters only: Herald's case mapping leaves every other character
// as it is, so that the result never changes the length.
inline std::string upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

inline std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// Lists and maps are values: these return a new collection.
template <class T>
std::vector<T> append(std::vector<T> list, T item) {
  list.push_back(std::move(item));
  return list;
}

template <class K, class V>
std::optional<V> get(const std::map<K, V>& map, const K& key) {
  auto it = map.find(key);
  if (it == map.end()) return std::nullopt;
  return it->second;
}

template <class K, class V>
std::map<K, V> put(std::map<K, V> map, K key, V value) {
  map.insert_or_assign(std::move(key), std::move(value));
  return map;
}

// A map literal: a later entry replaces an earlier one with an equal key.
template <class K, class V>
std::map<K, V> map_of(std::initializer_list<std::pair<K, V>> entries) {
  std::map<K, V> map;
  for (const auto& [key, value] : entries) map.insert_or_assign(key, value);
  return map;
}

template <class K, class V>
std::map<K, V> remove(std::map<K, V> map, const K& key) {
  map.erase(key);
  return map;
}

}  // namespace ops
}  // namespace herald
