#include "herald/event_id.hpp"

#include <ostream>

namespace herald {
namespace {

constexpr char kHex[] = "0123456789abcdef";

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

EventId EventId::from_random(std::uint64_t a, std::uint64_t b) {
  // RFC 9562: version 4 in the high nibble of byte 6, variant 10 in byte 8.
  a = (a & 0xFFFFFFFFFFFF0FFFull) | 0x0000000000004000ull;
  b = (b & 0x3FFFFFFFFFFFFFFFull) | 0x8000000000000000ull;
  return EventId(a, b);
}

void EventId::write_to(char* out) const {
  int pos = 0;
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) out[pos++] = '-';
    const std::uint64_t word = i < 16 ? hi_ : lo_;
    const int shift = 60 - 4 * (i % 16);
    out[pos++] = kHex[(word >> shift) & 0xF];
  }
}

std::string EventId::str() const {
  std::string text(36, '\0');
  write_to(text.data());
  return text;
}

std::optional<EventId> EventId::parse(std::string_view text) {
  if (text.size() != 36) return std::nullopt;
  std::uint64_t words[2] = {0, 0};
  int digit = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i] != '-') return std::nullopt;
      continue;
    }
    const int v = hex_value(text[i]);
    if (v < 0) return std::nullopt;
    words[digit / 16] =
        (words[digit / 16] << 4) | static_cast<std::uint64_t>(v);
    ++digit;
  }
  return EventId(words[0], words[1]);
}

std::ostream& operator<<(std::ostream& os, const EventId& id) {
  return os << id.str();
}

}  // namespace herald
