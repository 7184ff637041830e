#pragma once
// JSON codecs of the built-in types that generated code encodes: events,
// agent state and message arguments go through nlohmann::json, whose
// adl_serializer these specialise.
//
//   Instant           ISO-8601 UTC text (format_instant / parse_instant)
//   Duration          an integer count of nanoseconds (negative ones too)
//   herald::Unit      null
//   std::optional<T>  null, or the value's form
//   std::map<K, V>    an object when K is std::string, otherwise an array of
//                     [key, value] pairs, so that any key type round-trips
//
// Decoding returns values, so element types need not be
// default-constructible (generated opaque and refined types are not).
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

#include "herald/ops.hpp"
#include "herald/time.hpp"

namespace nlohmann {

template <>
struct adl_serializer<herald::Instant> {
  static void to_json(json& j, const herald::Instant& at) {
    j = herald::format_instant(at);
  }
  static herald::Instant from_json(const json& j) {
    return herald::parse_instant(j.get_ref<const std::string&>());
  }
};

template <>
struct adl_serializer<herald::Duration> {
  static void to_json(json& j, const herald::Duration& d) {
    j = static_cast<std::int64_t>(d.count());
  }
  static herald::Duration from_json(const json& j) {
    return herald::Duration(j.get<std::int64_t>());
  }
};

template <>
struct adl_serializer<herald::Unit> {
  static void to_json(json& j, herald::Unit) { j = nullptr; }
  static herald::Unit from_json(const json& j) {
    if (!j.is_null())
      throw std::invalid_argument("expected null for (), got " + j.dump());
    return herald::Unit{};
  }
};

template <class T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& value) {
    if (value) {
      j = *value;
    } else {
      j = nullptr;
    }
  }
  static std::optional<T> from_json(const json& j) {
    if (j.is_null()) return std::nullopt;
    return j.get<T>();
  }
};

template <class K, class V>
struct adl_serializer<std::map<K, V>> {
  static void to_json(json& j, const std::map<K, V>& map) {
    if constexpr (std::is_same_v<K, std::string>) {
      j = json::object();
      for (const auto& [key, value] : map) j[key] = value;
    } else {
      j = json::array();
      for (const auto& [key, value] : map)
        j.push_back(json::array({json(key), json(value)}));
    }
  }
  static std::map<K, V> from_json(const json& j) {
    std::map<K, V> map;
    if constexpr (std::is_same_v<K, std::string>) {
      for (const auto& [key, value] : j.items())
        map.insert_or_assign(key, value.template get<V>());
    } else {
      for (const json& pair : j) {
        if (!pair.is_array() || pair.size() != 2) {
          throw std::invalid_argument("expected a [key, value] pair, got " +
                                      pair.dump());
        }
        map.insert_or_assign(pair[0].get<K>(), pair[1].get<V>());
      }
    }
    return map;
  }
};

}  // namespace nlohmann
