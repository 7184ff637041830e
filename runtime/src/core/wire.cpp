// herald/wire.hpp over nlohmann::json: each function is the nlohmann
// operation the codecs of herald/codec.hpp perform, so forms and errors are
// the same.
#include "herald/wire.hpp"

#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "herald/codec.hpp"
#include "herald/errors.hpp"

namespace herald::wire {

void set_object(Json& j) { j = Json::object(); }
void set_array(Json& j) { j = Json::array(); }
void set_null(Json& j) { j = nullptr; }
void set_text(Json& j, std::string_view text) { j = text; }
Json& member(Json& j, std::string_view key) { return j[key]; }
Json& append(Json& j) {
  j.push_back(nullptr);
  return j.back();
}

void put(Json& j, std::int64_t v) { j = v; }
// JSON has no infinity or NaN (nlohmann writes null, which no Float decodes
// from): they are the strings of protobuf's JSON mapping, so a Float
// round-trips through every store as it does in memory.
void put(Json& j, double v) {
  if (std::isfinite(v)) {
    j = v;
  } else if (std::isnan(v)) {
    j = "NaN";
  } else {
    j = v > 0 ? "Infinity" : "-Infinity";
  }
}
void put(Json& j, bool v) { j = v; }
void put(Json& j, const std::string& v) { j = v; }
void put(Json& j, Instant v) { j = v; }
void put(Json& j, Duration v) { j = v; }
void put(Json& j, Unit v) { j = v; }

std::string dump_with(void (*encode)(Json&, const void*), const void* value) {
  Json j;
  encode(j, value);
  return j.dump();
}

namespace {
// The path of the first invalid String under `j` (`path` is j's), or
// nullopt.
std::optional<std::string> invalid_text_path(const Json& j,
                                             const std::string& path) {
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (invalid_utf8_at(s) != std::string::npos)
      return fmt::format("{} (byte {})", path, invalid_utf8_at(s));
    return std::nullopt;
  }
  if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (auto bad = invalid_text_path(j[i], fmt::format("{}[{}]", path, i)))
        return bad;
    }
    return std::nullopt;
  }
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if (invalid_utf8_at(key) != std::string::npos)
        return fmt::format("a member name in {}", path);
      if (auto bad = invalid_text_path(value, path + "." + fault_text(key)))
        return bad;
    }
  }
  return std::nullopt;
}
}  // namespace

std::optional<std::string> invalid_text(const Json& j) {
  return invalid_text_path(j, "$");
}

const Json& at(const Json& j, std::string_view key) { return j.at(key); }
bool contains(const Json& j, std::string_view key) { return j.contains(key); }
bool is_null(const Json& j) { return j.is_null(); }
const std::string& text(const Json& j) {
  return j.get_ref<const std::string&>();
}
std::string dump(const Json& j) { return j.dump(); }

std::int64_t get_int(const Json& j) { return j.get<std::int64_t>(); }
double get_float(const Json& j) {
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  return j.get<double>();
}
bool get_bool(const Json& j) { return j.get<bool>(); }
std::string get_string(const Json& j) { return j.get<std::string>(); }
Instant get_instant(const Json& j) { return j.get<Instant>(); }
Duration get_duration(const Json& j) { return j.get<Duration>(); }
Unit get_unit(const Json& j) { return j.get<Unit>(); }

void each_element(const Json& j, void (*visit)(void*, const Json&),
                  void* context) {
  // The check and message of nlohmann's from_json for sequences.
  if (!j.is_array()) {
    throw Json::type_error::create(
        302, std::string("type must be array, but is ") + j.type_name(), &j);
  }
  for (const Json& element : j) visit(context, element);
}

void each_value(const Json& j, void (*visit)(void*, const Json&),
                void* context) {
  for (const Json& value : j) visit(context, value);
}

void each_member(const Json& j,
                 void (*visit)(void*, const std::string&, const Json&),
                 void* context) {
  for (const auto& [key, value] : j.items()) visit(context, key, value);
}

std::pair<const Json*, const Json*> pair_elements(const Json& j) {
  if (!j.is_array() || j.size() != 2) {
    throw std::invalid_argument("expected a [key, value] pair, got " +
                                j.dump());
  }
  return {&j[0], &j[1]};
}

Document::Document() : json_(std::make_unique<Json>()) {}

Document::Document(std::string_view type, std::string_view bytes) {
  // The parser validates UTF-8 in strings and rejects trailing bytes.
  try {
    json_ = std::make_unique<Json>(Json::parse(bytes));
  } catch (const Json::parse_error& e) {
    throw DecodeError(DecodeError::Kind::syntax,
                      fmt::format("{}: not JSON: {}", type, e.what()));
  }
}

Document::~Document() = default;

std::string Document::bytes(std::string_view type) const {
  if (auto at = invalid_text(*json_)) {
    throw InvalidText(
        fmt::format("{}: a String at {} is not valid UTF-8", type, *at));
  }
  return json_->dump();
}

void Document::rethrow_decode_error(std::string_view type) {
  try {
    throw;
  } catch (const RefinementError& e) {
    throw DecodeError(DecodeError::Kind::refinement,
                      fmt::format("{}: {}", type, e.what()));
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw DecodeError(DecodeError::Kind::shape,
                      fmt::format("{}: not its form: {}", type, e.what()));
  }
}

}  // namespace herald::wire
