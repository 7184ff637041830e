#include "herald/time.hpp"

#include <charconv>
#include <stdexcept>

#include <fmt/format.h>

namespace herald {

std::string format_instant(Instant at) {
  const auto days = std::chrono::floor<std::chrono::days>(at);
  const std::chrono::year_month_day ymd(days);
  const auto in_day = at - days;
  const auto h = std::chrono::duration_cast<std::chrono::hours>(in_day);
  const auto m = std::chrono::duration_cast<std::chrono::minutes>(in_day - h);
  const auto s = std::chrono::duration_cast<std::chrono::seconds>(in_day - h - m);
  const auto ns = (in_day - h - m - s).count();
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:09}Z", static_cast<int>(ymd.year()),
                     static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()), h.count(), m.count(),
                     s.count(), ns);
}

Instant parse_instant(std::string_view text) {
  auto fail = [&]() -> Instant { throw std::invalid_argument("expected an ISO-8601 UTC instant, got '" + std::string(text) + "'"); };
  auto number = [&](std::size_t pos, std::size_t len) {
    int v = 0;
    if (pos + len > text.size()) fail();
    auto [end, ec] = std::from_chars(text.data() + pos, text.data() + pos + len, v);
    if (ec != std::errc() || end != text.data() + pos + len) fail();
    return v;
  };
  if (text.size() < 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' || text[16] != ':' ||
      text.back() != 'Z') {
    return fail();
  }
  const std::chrono::year_month_day ymd{std::chrono::year(number(0, 4)),
                                        std::chrono::month(static_cast<unsigned>(number(5, 2))),
                                        std::chrono::day(static_cast<unsigned>(number(8, 2)))};
  if (!ymd.ok()) return fail();
  Instant at = Instant(std::chrono::sys_days(ymd)) + std::chrono::hours(number(11, 2)) +
               std::chrono::minutes(number(14, 2)) + std::chrono::seconds(number(17, 2));
  if (text.size() > 20) {
    if (text[19] != '.' || text.size() > 30 || text.size() < 22) return fail();
    const std::size_t digits = text.size() - 21;
    std::int64_t ns = number(20, digits);
    for (std::size_t i = digits; i < 9; ++i) ns *= 10;
    at += std::chrono::nanoseconds(ns);
  }
  return at;
}

Duration parse_duration(std::string_view text) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data() || value < 0) {
    throw std::invalid_argument("expected a duration such as 250ms, 30s or 5m");
  }
  const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  using namespace std::chrono;
  if (unit == "ns") return nanoseconds(value);
  if (unit == "us") return microseconds(value);
  if (unit == "ms") return milliseconds(value);
  if (unit == "s") return seconds(value);
  if (unit == "m") return minutes(value);
  if (unit == "h") return hours(value);
  if (unit == "d") return days(value);
  throw std::invalid_argument("expected a duration such as 250ms, 30s or 5m (units ns, us, ms, s, m, h, d)");
}

std::string format_duration(Duration d) {
  using namespace std::chrono;
  const auto n = d.count();
  if (n % duration_cast<nanoseconds>(hours(1)).count() == 0 && n != 0) return fmt::format("{}h", n / 3'600'000'000'000);
  if (n % 60'000'000'000 == 0 && n != 0) return fmt::format("{}m", n / 60'000'000'000);
  if (n % 1'000'000'000 == 0 && n != 0) return fmt::format("{}s", n / 1'000'000'000);
  if (n % 1'000'000 == 0 && n != 0) return fmt::format("{}ms", n / 1'000'000);
  if (n % 1'000 == 0 && n != 0) return fmt::format("{}us", n / 1'000);
  return fmt::format("{}ns", n);
}

}  // namespace herald
