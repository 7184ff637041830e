#pragma once
// Time as the runtime sees it: nanosecond instants on the system clock's
// epoch, so virtual time (deterministic executor) and wall time (threaded
// executor) share one type and one text form.
#include <chrono>
#include <cstdint>
#include <string>

namespace herald {

using Duration = std::chrono::nanoseconds;
using Instant = std::chrono::sys_time<std::chrono::nanoseconds>;

// ISO-8601 UTC with nanoseconds, e.g. 2026-11-30T10:40:53.000000123Z.
std::string format_instant(Instant at);
// Parses what format_instant writes (fraction optional, 1 to 9 digits).
// Throws std::invalid_argument.
Instant parse_instant(std::string_view text);

// Parses a duration written as <integer><unit> with unit ns, us, ms, s, m, h
// or d (e.g. "250ms", "30s"). Throws std::invalid_argument on anything else.
Duration parse_duration(std::string_view text);
std::string format_duration(Duration d);

}  // namespace herald
