#pragma once
// What generated code says of each event type, and all that a generated
// header needs of the runtime to say it. For commerce.order.PaymentConfirmed:
//
//   template <>
//   struct herald::EventInfo<commerce::order::PaymentConfirmed> {
//     static constexpr std::string_view owner = "commerce.order";
//     static constexpr std::string_view name =
//         "commerce.order.PaymentConfirmed";
//     static constexpr std::int64_t schema_version = 1;
//     static constexpr std::size_t max_encoded_bytes = 55;  // when bounded
//     // The byte API (herald/bytes.hpp), defined in the context's source.
//     static std::string encode(const commerce::order::PaymentConfirmed&);
//     static commerce::order::PaymentConfirmed decode(std::string_view);
//   };
//
// herald/event_type.hpp turns it into the runtime's EventType.
#include <concepts>
#include <cstddef>

namespace herald {

template <class E>
struct EventInfo;  // specialised by generated code for every event type

// Optional member of EventInfo: `static constexpr std::size_t
// max_encoded_bytes`. Events whose fields are all fixed-size have a bound the
// code generator can compute; when the bound is within the payload limit the
// runtime skips measuring each payload.
template <class E>
concept HasEncodedBound = requires {
  { EventInfo<E>::max_encoded_bytes } -> std::convertible_to<std::size_t>;
};

}  // namespace herald
