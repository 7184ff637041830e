#pragma once
// The JSON wire interface generated codecs are written against: a small set
// of functions over nlohmann::json, defined out of line in the runtime
// library (src/core/wire.cpp), so that a generated codec is plain calls and
// instantiates none of nlohmann's templates. The forms are those of
// `herald/codec.hpp`, byte for byte (but a non-finite Float, which
// nlohmann writes as null), and errors are nlohmann's own exceptions with
// their messages:
//
//   Int, Float, Bool, String  the JSON number, boolean, string; a Float
//                     that is NaN or infinite: "NaN", "Infinity", "-Infinity"
//   Instant           ISO-8601 UTC text
//   Duration          an integer count of nanoseconds
//   herald::Unit      null
//   std::optional<T>  null, or the value's form
//   std::vector<T>    an array of the elements' forms
//   std::map<K, V>    an object when K is std::string, otherwise an array of
//                     [key, value] pairs
//   any other T       nlohmann::adl_serializer<T> (generated types declare
//                     their specialisations)
//
// Encoding: set_object(j); put(member(j, "name"), v.name); ...
// Decoding: get<T>(at(j, "name")), contains(j, "name").
// Bytes (herald/bytes.hpp): a Document owns the JSON value an event is
// encoded into or decoded from.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "herald/ops.hpp"
#include "herald/time.hpp"

namespace herald::wire {

using Json = nlohmann::json;

// --- building ---
void set_object(Json& j);  // j = {}
void set_array(Json& j);   // j = []
void set_null(Json& j);
void set_text(Json& j, std::string_view text);  // a JSON string
// j[key]: the member, created null when absent (j null becomes an object).
Json& member(Json& j, std::string_view key);
// A new null element at the end of the array j (j null becomes an array).
Json& append(Json& j);

void put(Json& j, std::int64_t v);
// A finite Float is a JSON number; NaN and the infinities, which JSON cannot
// hold, are the strings "NaN", "Infinity" and "-Infinity" (protobuf's JSON
// mapping), and get_float reads both forms.
void put(Json& j, double v);
void put(Json& j, bool v);
void put(Json& j, const std::string& v);
void put(Json& j, Instant v);
void put(Json& j, Duration v);
void put(Json& j, Unit v);

// Declared before they are defined, so that each finds the others for
// nested types (an Option of a List, a Map of Options).
template <class T>
void put(Json& j, const T& v);
template <class T>
void put(Json& j, const std::optional<T>& v);
template <class T>
void put(Json& j, const std::vector<T>& v);
template <class K, class V>
void put(Json& j, const std::map<K, V>& map);

template <class T>
void put(Json& j, const T& v) {
  nlohmann::adl_serializer<T>::to_json(j, v);
}

template <class T>
void put(Json& j, const std::optional<T>& v) {
  if (v) {
    put(j, *v);
  } else {
    set_null(j);
  }
}

template <class T>
void put(Json& j, const std::vector<T>& v) {
  set_array(j);
  for (const T& element : v) put(append(j), element);
}

template <class K, class V>
void put(Json& j, const std::map<K, V>& map) {
  if constexpr (std::is_same_v<K, std::string>) {
    set_object(j);
    for (const auto& [key, value] : map) put(member(j, key), value);
  } else {
    set_array(j);
    for (const auto& [key, value] : map) {
      Json& pair = append(j);
      set_array(pair);
      put(append(pair), key);
      put(append(pair), value);
    }
  }
}

// The compact JSON text of `v` (j.dump() of its form), for messages.
std::string dump_with(void (*encode)(Json&, const void*), const void* value);
template <class T>
std::string dump_value(const T& v) {
  return dump_with(
      [](Json& j, const void* p) { put(j, *static_cast<const T*>(p)); }, &v);
}

// Where the first String (or member name) in `j` that is not valid UTF-8
// is, as a path ("$.lines[2] (byte 3)"), or nullopt when every one is.
std::optional<std::string> invalid_text(const Json& j);

// --- reading ---
// j.at(key): throws nlohmann's type_error (not an object) or out_of_range.
const Json& at(const Json& j, std::string_view key);
// j.contains(key): false for a non-object.
bool contains(const Json& j, std::string_view key);
bool is_null(const Json& j);
// The string j holds; throws nlohmann's type_error otherwise.
const std::string& text(const Json& j);
// j.dump(): compact text, for messages.
std::string dump(const Json& j);

std::int64_t get_int(const Json& j);
double get_float(const Json& j);
bool get_bool(const Json& j);
std::string get_string(const Json& j);
Instant get_instant(const Json& j);
Duration get_duration(const Json& j);
Unit get_unit(const Json& j);

// Calls visit(context, element) for each element of the array j; throws
// nlohmann's type_error 302 when j is not an array.
void each_element(const Json& j, void (*visit)(void*, const Json&),
                  void* context);
// Calls visit(context, value) for each value a range-for over j visits: an
// array's elements, an object's member values, a primitive itself, nothing
// for null.
void each_value(const Json& j, void (*visit)(void*, const Json&),
                void* context);
// Calls visit(context, key, value) for each member of the object j, as
// j.items() iterates it.
void each_member(const Json& j,
                 void (*visit)(void*, const std::string&, const Json&),
                 void* context);
// The two elements of a [key, value] pair; throws std::invalid_argument
// ("expected a [key, value] pair, got ...") for anything else.
std::pair<const Json*, const Json*> pair_elements(const Json& j);

template <class T>
struct Decode {
  static T from(const Json& j) {
    return nlohmann::adl_serializer<T>::from_json(j);
  }
};

template <class T>
T get(const Json& j) {
  return Decode<T>::from(j);
}

template <>
struct Decode<std::int64_t> {
  static std::int64_t from(const Json& j) { return get_int(j); }
};
template <>
struct Decode<double> {
  static double from(const Json& j) { return get_float(j); }
};
template <>
struct Decode<bool> {
  static bool from(const Json& j) { return get_bool(j); }
};
template <>
struct Decode<std::string> {
  static std::string from(const Json& j) { return get_string(j); }
};
template <>
struct Decode<Instant> {
  static Instant from(const Json& j) { return get_instant(j); }
};
template <>
struct Decode<Duration> {
  static Duration from(const Json& j) { return get_duration(j); }
};
template <>
struct Decode<Unit> {
  static Unit from(const Json& j) { return get_unit(j); }
};

template <class T>
struct Decode<std::optional<T>> {
  static std::optional<T> from(const Json& j) {
    if (is_null(j)) return std::nullopt;
    return get<T>(j);
  }
};

template <class T>
struct Decode<std::vector<T>> {
  static std::vector<T> from(const Json& j) {
    std::vector<T> out;
    each_element(
        j,
        [](void* context, const Json& element) {
          static_cast<std::vector<T>*>(context)->push_back(get<T>(element));
        },
        &out);
    return out;
  }
};

template <class K, class V>
struct Decode<std::map<K, V>> {
  static std::map<K, V> from(const Json& j) {
    std::map<K, V> map;
    if constexpr (std::is_same_v<K, std::string>) {
      each_member(
          j,
          [](void* context, const std::string& key, const Json& value) {
            static_cast<std::map<K, V>*>(context)->insert_or_assign(
                key, get<V>(value));
          },
          &map);
    } else {
      each_value(
          j,
          [](void* context, const Json& element) {
            auto [key, value] = pair_elements(element);
            static_cast<std::map<K, V>*>(context)->insert_or_assign(
                get<K>(*key), get<V>(*value));
          },
          &map);
    }
    return map;
  }
};

// An owned JSON value: what a generated event's byte functions
// (EventInfo<E>::encode and decode, herald/bytes.hpp) encode into or decode
// from, so that they instantiate none of nlohmann's templates either. The
// bytes are the compact JSON text (j.dump()), the form the runtime stores a
// payload in.
//
//   std::string encode(const E& v) {
//     herald::wire::Document doc;
//     E_to_json(doc.json(), v);
//     return doc.bytes(name);
//   }
//   E decode(std::string_view bytes) {
//     const herald::wire::Document doc(name, bytes);
//     try {
//       return E_from_json(doc.json());
//     } catch (...) {
//       herald::wire::Document::rethrow_decode_error(name);
//     }
//   }
class Document {
 public:
  Document();  // null
  // `bytes` parsed as one JSON value; throws herald::DecodeError (syntax,
  // naming `type`) when they are not one.
  Document(std::string_view type, std::string_view bytes);
  ~Document();
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;
  Document(Document&&) = delete;
  Document& operator=(Document&&) = delete;

  Json& json() { return *json_; }
  const Json& json() const { return *json_; }
  // The compact JSON text; throws herald::InvalidText naming `type` and
  // where, when a String in it is not valid UTF-8 (which JSON cannot hold).
  std::string bytes(std::string_view type) const;

  // Called in a catch block around a decoder: the exception being handled
  // as a herald::DecodeError naming `type`, refinement for a
  // herald::RefinementError, shape for any other std::exception (nlohmann's
  // type_error and out_of_range, std::invalid_argument of an unknown
  // variant, an Instant that does not parse); std::bad_alloc and what is no
  // std::exception are rethrown as they are.
  [[noreturn]] static void rethrow_decode_error(std::string_view type);

 private:
  std::unique_ptr<Json> json_;
};

}  // namespace herald::wire
