#pragma once
// Event types as the runtime knows them. Generated code describes each event
// struct with a specialisation of EventInfo and nlohmann to_json/from_json
// functions beside the struct; event_type<E>() turns that into the one
// EventType descriptor the runtime routes on.
//
//   template <> struct herald::EventInfo<commerce::order::PaymentConfirmed> {
//     static constexpr std::string_view owner = "commerce.order";
//     static constexpr std::string_view name = "commerce.order.PaymentConfirmed";
//     static constexpr std::int64_t schema_version = 1;
//     static constexpr std::size_t max_encoded_bytes = 55;  // when bounded
//   };
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace herald {

template <class E>
struct EventInfo;  // specialised by generated code for every event type

// Optional member of EventInfo: `static constexpr std::size_t max_encoded_bytes`.
// Events whose fields are all fixed-size have a bound the code generator can
// compute; when the bound is within the payload limit the runtime skips
// measuring each payload.
template <class E>
concept HasEncodedBound = requires { { EventInfo<E>::max_encoded_bytes } -> std::convertible_to<std::size_t>; };

// The codec seam for durable logs and brokers: typed value <-> JSON wire form.
class EventCodec {
 public:
  virtual ~EventCodec() = default;
  virtual nlohmann::json encode(const void* payload) const = 0;
  // `schema_version` is the version the JSON was written with; fields absent
  // in older versions take their declared defaults, fields of newer versions
  // are ignored (language.md §7). Throws on malformed input.
  virtual std::shared_ptr<const void> decode(const nlohmann::json& wire, std::int64_t schema_version) const = 0;
  // Size of the payload's wire form in bytes (compact JSON).
  virtual std::size_t encoded_size(const void* payload) const = 0;
};

class EventType {
 public:
  EventType(std::string owner, std::string name, std::int64_t schema_version,
            std::optional<std::size_t> max_encoded_bytes, std::unique_ptr<EventCodec> codec);
  ~EventType();
  EventType(const EventType&) = delete;
  EventType& operator=(const EventType&) = delete;

  const std::string& owner() const { return owner_; }
  // Qualified, e.g. "commerce.order.PaymentConfirmed".
  const std::string& name() const { return name_; }
  std::int64_t schema_version() const { return schema_version_; }
  std::optional<std::size_t> max_encoded_bytes() const { return max_encoded_bytes_; }
  const EventCodec& codec() const { return *codec_; }
  // Dense process-wide index; the routing table is a vector indexed by it.
  std::uint32_t index() const { return index_; }

 private:
  std::string owner_;
  std::string name_;
  std::int64_t schema_version_;
  std::optional<std::size_t> max_encoded_bytes_;
  std::unique_ptr<EventCodec> codec_;
  std::uint32_t index_;
};

// The EventType of this process named `name` (qualified), or nullptr: each
// EventType registers itself when it is constructed. Thread-safe.
const EventType* find_event_type(std::string_view name);

// Length of j.dump() without building the text.
std::size_t json_encoded_size(const nlohmann::json& j);

template <class E>
class JsonEventCodec final : public EventCodec {
 public:
  nlohmann::json encode(const void* payload) const override { return *static_cast<const E*>(payload); }
  std::shared_ptr<const void> decode(const nlohmann::json& wire, std::int64_t schema_version) const override {
    // A newer version only adds fields with defaults, which this build does
    // not know and ignores.
    if (schema_version < 1) {
      throw std::invalid_argument("schema version " + std::to_string(schema_version) + " of " +
                                  std::string(EventInfo<E>::name) + " is not positive");
    }
    return std::make_shared<const E>(wire.get<E>());
  }
  std::size_t encoded_size(const void* payload) const override { return json_encoded_size(encode(payload)); }
};

template <class E>
const EventType& event_type() {
  static const EventType type = [] {
    std::optional<std::size_t> bound;
    if constexpr (HasEncodedBound<E>) bound = EventInfo<E>::max_encoded_bytes;
    return EventType(std::string(EventInfo<E>::owner), std::string(EventInfo<E>::name),
                     EventInfo<E>::schema_version, bound, std::make_unique<JsonEventCodec<E>>());
  }();
  return type;
}

}  // namespace herald
