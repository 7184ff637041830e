#pragma once
// EventId: the envelope's eventId, a UUID: version 7 when minted by the
// runtime (herald/id_source.hpp), version 4 from Random.uuid. It is kept as
// 128 bits so that stamping, dedup indexes and queues never allocate; the
// text form is produced only when someone reads or serialises it.
#include <array>
#include <compare>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

// fmt::formatter<std::string_view>, which the formatter below builds on,
// is in fmt/core.h; fmt/format.h is not needed here.
#include <fmt/core.h>

namespace herald {

class EventId {
 public:
  constexpr EventId() = default;
  constexpr EventId(std::uint64_t hi, std::uint64_t lo) : hi_(hi), lo_(lo) {}

  // Builds a version-4 UUID from 128 random bits.
  static EventId from_random(std::uint64_t a, std::uint64_t b);
  // Parses the canonical 8-4-4-4-12 hex form; nullopt if malformed.
  static std::optional<EventId> parse(std::string_view text);

  std::string str() const;
  // Writes the 36 characters of the text form to out.
  void write_to(char* out) const;

  constexpr bool is_nil() const { return hi_ == 0 && lo_ == 0; }
  constexpr std::uint64_t hi() const { return hi_; }
  constexpr std::uint64_t lo() const { return lo_; }

  friend constexpr auto operator<=>(const EventId&, const EventId&) = default;

 private:
  std::uint64_t hi_ = 0;
  std::uint64_t lo_ = 0;
};

std::ostream& operator<<(std::ostream& os, const EventId& id);

struct EventIdHash {
  std::size_t operator()(const EventId& id) const noexcept {
    // The low half is random in both versions; folding the halves keeps
    // every bit.
    return static_cast<std::size_t>(id.hi() ^
                                    (id.lo() * 0x9E3779B97F4A7C15ull));
  }
};

}  // namespace herald

template <>
struct fmt::formatter<herald::EventId> : fmt::formatter<std::string_view> {
  template <class Ctx>
  auto format(const herald::EventId& id, Ctx& ctx) const {
    std::array<char, 36> text{};
    id.write_to(text.data());
    return fmt::formatter<std::string_view>::format(
        std::string_view(text.data(), text.size()), ctx);
  }
};

template <>
struct std::hash<herald::EventId> : herald::EventIdHash {};
