#pragma once
// Event types as the runtime knows them. Generated code describes each event
// struct with a specialisation of EventInfo (herald/event_info.hpp) and of
// nlohmann::adl_serializer beside the struct; event_type<E>() turns that
// into the one EventType descriptor the runtime routes on.
#include <atomic>
#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <nlohmann/json_fwd.hpp>

#include "herald/event_info.hpp"

namespace herald {

// The codec seam for durable logs and brokers: typed value <-> JSON wire form.
class EventCodec {
 public:
  virtual ~EventCodec() = default;
  virtual nlohmann::json encode(const void* payload) const = 0;
  // `schema_version` is the version the JSON was written with; fields absent
  // in older versions take their declared defaults, fields of newer versions
  // are ignored (language.md §7). Throws on malformed input.
  virtual std::shared_ptr<const void> decode(
      const nlohmann::json& wire, std::int64_t schema_version) const = 0;
  // Size of the payload's wire form in bytes (compact JSON).
  virtual std::size_t encoded_size(const void* payload) const = 0;
};

class EventType {
 public:
  EventType(std::string owner, std::string name, std::int64_t schema_version,
            std::optional<std::size_t> max_encoded_bytes,
            std::unique_ptr<EventCodec> codec);
  // The type of a generated event: a FunctionEventCodec over `encode` and
  // `decode`.
  EventType(std::string_view owner, std::string_view name,
            std::int64_t schema_version,
            std::optional<std::size_t> max_encoded_bytes,
            void (*encode)(nlohmann::json&, const void*),
            std::shared_ptr<const void> (*decode)(const nlohmann::json&));
  ~EventType();
  EventType(const EventType&) = delete;
  EventType& operator=(const EventType&) = delete;

  const std::string& owner() const { return owner_; }
  // Qualified, e.g. "commerce.order.PaymentConfirmed".
  const std::string& name() const { return name_; }
  std::int64_t schema_version() const { return schema_version_; }
  std::optional<std::size_t> max_encoded_bytes() const {
    return max_encoded_bytes_;
  }
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

// The codec of a generated event type: its encoding and decoding as two
// functions over the codec's specialisation of nlohmann::adl_serializer,
// the schema-version check, the JSON value and the size measured out of
// line (event_type.cpp). A unit registering an event type instantiates
// only the small functions of `detail` below, none of nlohmann's or
// shared_ptr's templates, and needs no more than nlohmann/json_fwd.hpp.
class FunctionEventCodec final : public EventCodec {
 public:
  using Encode = void (*)(nlohmann::json& out, const void* payload);
  using Decode = std::shared_ptr<const void> (*)(const nlohmann::json& wire);
  FunctionEventCodec(std::string_view name, Encode encode, Decode decode)
      : name_(name), encode_(encode), decode_(decode) {}
  nlohmann::json encode(const void* payload) const override;
  std::shared_ptr<const void> decode(
      const nlohmann::json& wire, std::int64_t schema_version) const override;
  std::size_t encoded_size(const void* payload) const override;

 private:
  std::string_view name_;
  Encode encode_;
  Decode decode_;
};

namespace detail {

// A decoded payload owned by `destroy`, which deletes it as its type.
std::shared_ptr<const void> own_payload(const void* payload,
                                        void (*destroy)(const void*));

template <class E>
void destroy_event(const void* payload) {
  delete static_cast<const E*>(payload);
}

template <class E>
void encode_event(nlohmann::json& out, const void* payload) {
  nlohmann::adl_serializer<E>::to_json(out, *static_cast<const E*>(payload));
}

// Through the specialisation's `from_json(const json&)` that generated
// codecs declare; a hand-written type decodes through get<E>(), in the unit
// that defines its from_json.
template <class E, class Json>
std::shared_ptr<const void> decode_event(const Json& wire) {
  if constexpr (requires {
                  {
                    nlohmann::adl_serializer<E>::from_json(wire)
                    } -> std::same_as<E>;
                }) {
    return own_payload(new E(nlohmann::adl_serializer<E>::from_json(wire)),
                       &destroy_event<E>);
  } else {
    return own_payload(new E(wire.template get<E>()), &destroy_event<E>);
  }
}

template <class E>
constexpr std::optional<std::size_t> encoded_bound() {
  if constexpr (HasEncodedBound<E>) {
    return EventInfo<E>::max_encoded_bytes;
  } else {
    return std::nullopt;
  }
}

}  // namespace detail

template <class E>
const EventType& event_type() {
  static const EventType type(
      EventInfo<E>::owner, EventInfo<E>::name, EventInfo<E>::schema_version,
      detail::encoded_bound<E>(), &detail::encode_event<E>,
      &detail::decode_event<E, nlohmann::json>);
  return type;
}

}  // namespace herald
