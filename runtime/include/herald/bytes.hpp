#pragma once
// The byte API for hosts: a generated event to bytes and back, without
// parsing a JSON library. The bytes are the event's wire form, its compact
// JSON text, exactly as the runtime stores the payload, so bytes a store
// wrote decode here and bytes encoded here are what an emission would
// store:
//
//   std::string bytes = herald::encode(commerce::order::OrderPlaced{...});
//   auto placed = herald::decode<commerce::order::OrderPlaced>(bytes);
//
// decode reads the form of every schema version of the event as the
// runtime does (an absent field with a default takes the default; unknown
// members are ignored) and throws herald::DecodeError for bytes that are
// not one: syntax (not JSON), shape (JSON, not the event's form) or
// refinement (a value outside its type's `where`). encode throws
// herald::InvalidText when a String is not valid UTF-8.
//
// The functions behind them are EventInfo<E>::encode and decode, which the
// code generator declares for every event and defines in the context's
// source, over the runtime's out-of-line JSON functions (herald/wire.hpp).
#include <concepts>
#include <string>
#include <string_view>

#include "herald/errors.hpp"
#include "herald/event_info.hpp"

namespace herald {

// An event type with byte functions: every event of generated code.
template <class E>
concept ByteEvent = requires(const E& event, std::string_view bytes) {
  { EventInfo<E>::encode(event) } -> std::same_as<std::string>;
  { EventInfo<E>::decode(bytes) } -> std::same_as<E>;
};

template <ByteEvent E>
std::string encode(const E& event) {
  return EventInfo<E>::encode(event);
}

template <ByteEvent E>
E decode(std::string_view bytes) {
  return EventInfo<E>::decode(bytes);
}

}  // namespace herald
